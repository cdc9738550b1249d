package dev.perflab.gateway;

import java.util.HashMap;
import java.util.Map;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The process environment a pod has: Kubernetes' service variables, from which Spring Boot detects the platform
 * (and, unless told otherwise, turns forwarded-header handling on), plus the variables the chart sets. It replaces
 * the {@code systemEnvironment} property source, which is where Spring Boot looks for both.
 */
class InACluster implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		MutablePropertySources sources = context.getEnvironment().getPropertySources();
		String name = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
		Map<String, Object> env = new HashMap<>(context.getEnvironment().getSystemEnvironment());
		env.put("KUBERNETES_SERVICE_HOST", "10.96.0.1");
		env.put("KUBERNETES_SERVICE_PORT", "443");
		env.putAll(chartVariables());
		sources.replace(name, new SystemEnvironmentPropertySource(name, env));
	}

	Map<String, String> chartVariables() {
		return Map.of();
	}

	/** The chart's setting for an Ingress controller in 192.0.2.0/24, and a local one for the tests' client. */
	static class BehindTrustedProxies extends InACluster {

		static final String TRUSTED = "192.0.2.0/24, 127.0.0.1";

		@Override
		Map<String, String> chartVariables() {
			return Map.of("PERFLAB_GATEWAY_TRUSTEDPROXIES", TRUSTED);
		}
	}
}
