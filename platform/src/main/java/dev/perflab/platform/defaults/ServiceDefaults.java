package dev.perflab.platform.defaults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.Profiles;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.ClassUtils;

/**
 * What every service shares, stated once in {@value #LOCATION}, below everything else: a service's application.yaml
 * (every document of it, whatever the profile), imported files, environment variables, system properties and the
 * command line all win. That is why this is not {@code spring.config.import}: an imported file wins over the file that
 * imports it, so a service could not state what differs.
 * <p>
 * A document of the file applies when its conditions hold: {@value #ON_PROFILE} (a profile expression, as in
 * application.yaml) and {@value #ON_CLASS} (a class on the service's classpath: a service that has no MySQL driver
 * gets no datasource, so it never tries to connect). Later documents win over earlier ones, as in application.yaml.
 */
class ServiceDefaults implements EnvironmentPostProcessor {

	static final String LOCATION = "perflab/service-defaults.yaml";

	static final String ON_PROFILE = "spring.config.activate.on-profile";

	static final String ON_CLASS = "perflab.defaults.activate.on-class";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		List<MapPropertySource> documents = load();
		// added last one by one from the final document: the later a document, the higher it ranks among them
		for (int i = documents.size() - 1; i >= 0; i--) {
			MapPropertySource document = documents.get(i);
			if (applies(document, environment, application.getClassLoader())) {
				environment.getPropertySources().addLast(withoutConditions(document));
			}
		}
	}

	private static List<MapPropertySource> load() {
		try {
			return new YamlPropertySourceLoader().load("perflabServiceDefaults", new ClassPathResource(LOCATION))
				.stream()
				.map(MapPropertySource.class::cast)
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(LOCATION, ex);
		}
	}

	private static boolean applies(MapPropertySource document, ConfigurableEnvironment environment,
			ClassLoader classLoader) {
		Object profile = document.getProperty(ON_PROFILE);
		Object type = document.getProperty(ON_CLASS);
		return (profile == null || environment.acceptsProfiles(Profiles.of(profile.toString())))
				&& (type == null || ClassUtils.isPresent(type.toString(), classLoader));
	}

	private static MapPropertySource withoutConditions(MapPropertySource document) {
		Map<String, Object> properties = new LinkedHashMap<>(document.getSource());
		properties.remove(ON_PROFILE);
		properties.remove(ON_CLASS);
		return new OriginTrackedMapPropertySource(document.getName(), properties, true);
	}

}
