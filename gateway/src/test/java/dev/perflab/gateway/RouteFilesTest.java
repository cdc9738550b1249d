package dev.perflab.gateway;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.cloud.gateway.route.RouteDefinition;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.env.MockEnvironment;

import dev.perflab.gateway.routes.RouteFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Routes come from one file per service outside the jar; the jar itself carries none. */
class RouteFilesTest {

	@TempDir
	Path dir;

	@Test
	void theJarCarriesNoRoutes() throws IOException {
		var sources = new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yaml"));
		assertThat(sources).isNotEmpty();
		for (var source : sources) {
			assertThat(((EnumerablePropertySource<?>) source).getPropertyNames())
				.noneMatch(name -> name.startsWith("spring.cloud.gateway.server.webflux.routes"));
		}
	}

	@Test
	void aServiceIsAddedByAFileNamedForItWithItsPlaceholdersResolved() throws IOException {
		Files.writeString(dir.resolve("billing.yaml"), """
				routes:
				  - id: billing-api
				    uri: ${perflab.gateway.services.billing:http://127.0.0.1:8090}
				    predicates: [ "Path=/v1/invoices/**" ]
				    metadata: { response-timeout: 3000 }
				    filters:
				      - name: RequestRateLimiter
				        args:
				          key-resolver: "#{@callerKeyResolver}"
				          redis-rate-limiter.replenishRate: ${perflab.gateway.rate-limit.replenish-rate:200}
				""");
		Files.writeString(dir.resolve("accounts.yaml"), """
				routes:
				  - id: accounts-api
				    uri: http://accounts:8091
				    predicates: [ "Path=/v1/accounts/**" ]
				  - id: invoices-of-an-account
				    uri: http://accounts:8091
				    order: -1
				    predicates: [ "Path=/v1/invoices/mine" ]
				    metadata: { service: billing }
				""");
		// a ConfigMap volume: the real files sit under ..data, next to symlinks with the plain names
		Files.createDirectories(dir.resolve("..data"));
		Files.writeString(dir.resolve("..data/ignored.yaml"), "routes: [ { id: never, uri: http://x, predicates: [ Path=/x ] } ]");
		MockEnvironment environment = new MockEnvironment().withProperty("perflab.gateway.services.billing", "http://billing:8090")
			.withProperty("perflab.gateway.rate-limit.replenish-rate", "7");

		List<RouteDefinition> routes = new RouteFiles(dir, environment).getRouteDefinitions().collectList().block();

		assertThat(routes).extracting(RouteDefinition::getId)
			.containsExactly("accounts-api", "invoices-of-an-account", "billing-api");
		RouteDefinition billing = routes.get(2);
		assertThat(billing.getUri()).isEqualTo(URI.create("http://billing:8090"));
		assertThat(billing.getPredicates().get(0).getArgs()).containsValue("/v1/invoices/**");
		assertThat(billing.getFilters().get(0).getArgs()).containsEntry("redis-rate-limiter.replenishRate", "7")
			.containsEntry("key-resolver", "#{@callerKeyResolver}");
		assertThat(billing.getMetadata()).containsEntry("service", "billing").containsEntry("response-timeout", 3000);
		assertThat(routes.get(0).getMetadata()).containsEntry("service", "accounts");
		assertThat(routes.get(1).getMetadata()).as("explicit service metadata wins").containsEntry("service", "billing");
		assertThat(routes.get(1).getOrder()).isEqualTo(-1);
	}

	@Test
	void aMissingDirectoryStopsTheGatewayNamingTheSetting() {
		assertThatThrownBy(() -> new RouteFiles(dir.resolve("nope"), new MockEnvironment()))
			.hasMessageContaining("PERFLAB_GATEWAY_ROUTES_DIR");
	}
}
