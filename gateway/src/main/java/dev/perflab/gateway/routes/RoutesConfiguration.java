package dev.perflab.gateway.routes;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

@Configuration(proxyBeanMethods = false)
class RoutesConfiguration {

	@Bean
	RouteFiles routeFiles(Properties properties, Environment environment) {
		return new RouteFiles(properties.dir(), environment);
	}

	/**
	 * @param dir the directory of route files, one {@code <service>.yaml} each (relative: to the working directory;
	 * the local stack and the tests use the repository's {@code config/gateway/routes}, the chart mounts a ConfigMap)
	 */
	@ConfigurationProperties("perflab.gateway.routes")
	record Properties(@DefaultValue("config/gateway/routes") Path dir) {
	}
}
