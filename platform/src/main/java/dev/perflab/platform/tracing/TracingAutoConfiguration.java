package dev.perflab.platform.tracing;

import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Tracing off records nothing: with export off Boot still builds the tracer and its ratio sampler, which would record
 * a share of the spans for nobody. Export off means no span is ever sampled, whatever a caller's traceparent says.
 */
@AutoConfiguration(before = OpenTelemetryTracingAutoConfiguration.class)
@ConditionalOnClass(Sampler.class)
public class TracingAutoConfiguration {

	/** false unless a service or the environment turns it on (perflab/service-defaults.yaml) */
	static final String ENABLED = "management.tracing.export.enabled";

	@Bean
	@ConditionalOnBooleanProperty(name = ENABLED, havingValue = false)
	Sampler perflabTracingOff() {
		return Sampler.alwaysOff();
	}
}
