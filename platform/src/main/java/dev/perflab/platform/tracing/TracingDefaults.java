package dev.perflab.platform.tracing;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Tracing defaults of every service, below everything else (a service's application.yaml, the chart's environment):
 * off unless {@code management.tracing.export.enabled} is true; once on, a tenth of the traces that start here are
 * sampled ({@code management.tracing.sampling.probability}), and a request that arrives with a sampled
 * {@code traceparent} is always recorded (Boot's parent-based sampler). Spans go to
 * {@code management.opentelemetry.tracing.export.otlp.endpoint} (OTLP/HTTP); with no endpoint nothing is exported.
 */
class TracingDefaults implements EnvironmentPostProcessor {

	static final String ENABLED = "management.tracing.export.enabled";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		environment.getPropertySources().addLast(new MapPropertySource("perflabTracingDefaults",
				Map.of(ENABLED, "false", "management.tracing.sampling.probability", "0.1")));
	}
}
