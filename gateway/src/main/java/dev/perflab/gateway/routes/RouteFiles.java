package dev.perflab.gateway.routes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.cloud.gateway.route.RouteDefinition;
import org.springframework.cloud.gateway.route.RouteDefinitionLocator;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

import dev.perflab.gateway.auth.IdentityRelayFilter;

/**
 * The gateway's routes, read from files outside its jar: every {@code <service>.yaml} in one directory holds that
 * service's {@code routes:} list, in Spring Cloud Gateway's own route format. Adding a service is adding a file
 * (the repository's {@code config/gateway/routes/}, which the chart ships and mounts as a ConfigMap), never a
 * change to the gateway. A file's routes keep their order; across files {@code order} decides (lower first).
 * {@code ${...}} placeholders resolve against the gateway's environment, so a route names its service's address
 * as {@code ${perflab.gateway.services.<service>:<local default>}}. A route without {@code service} metadata gets
 * the file's name: the audience of the identity token the gateway signs for it.
 */
public class RouteFiles implements RouteDefinitionLocator {

	private static final Logger log = LoggerFactory.getLogger(RouteFiles.class);

	private final List<RouteDefinition> routes;

	public RouteFiles(Path dir, Environment environment) {
		this.routes = load(dir, environment);
	}

	@Override
	public Flux<RouteDefinition> getRouteDefinitions() {
		return Flux.fromIterable(routes);
	}

	static List<RouteDefinition> load(Path dir, Environment environment) {
		if (!Files.isDirectory(dir)) {
			throw new IllegalStateException("No route files: " + dir.toAbsolutePath()
					+ " is not a directory (set perflab.gateway.routes.dir / PERFLAB_GATEWAY_ROUTES_DIR)");
		}
		List<RouteDefinition> all = new ArrayList<>();
		for (Path file : yamlFiles(dir)) {
			String service = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
			List<RouteDefinition> routes = read(file, environment);
			for (RouteDefinition route : routes) {
				route.getMetadata().putIfAbsent(IdentityRelayFilter.SERVICE_METADATA, service);
			}
			log.info("routes of {}: {} from {}", service, routes.stream().map(RouteDefinition::getId).toList(), file);
			all.addAll(routes);
		}
		return List.copyOf(all);
	}

	private static List<Path> yamlFiles(Path dir) {
		// a Kubernetes ConfigMap volume keeps its files as ..data/ symlinks next to them: only plain names count
		try (Stream<Path> files = Files.list(dir)) {
			return files.filter(f -> f.getFileName().toString().matches("[^.][^/]*\\.ya?ml")).sorted().toList();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static List<RouteDefinition> read(Path file, Environment environment) {
		List<PropertySource<?>> sources;
		try {
			sources = new YamlPropertySourceLoader().load(file.toString(), new FileSystemResource(file));
		}
		catch (IOException e) {
			throw new UncheckedIOException("Cannot read route file " + file, e);
		}
		Binder binder = new Binder(ConfigurationPropertySources.from(sources),
				new PropertySourcesPlaceholdersResolver(environment), ApplicationConversionService.getSharedInstance());
		return binder.bind("routes", Bindable.listOf(RouteDefinition.class)).orElse(List.of());
	}
}
