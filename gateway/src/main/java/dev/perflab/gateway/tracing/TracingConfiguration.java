package dev.perflab.gateway.tracing;

import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Traces across the hop without the gateway's client-call observation (off for its cost,
 * docs/gateway-performance.md): a headers filter hands the server span's context to the service instead.
 */
@Configuration(proxyBeanMethods = false)
class TracingConfiguration {

	static final String ENABLED = "management.tracing.export.enabled";

	@Bean
	@ConditionalOnBooleanProperty(ENABLED)
	TraceContextHeadersFilter traceContextHeadersFilter(Propagator propagator) {
		return new TraceContextHeadersFilter(propagator);
	}

	/** Tracing off records nothing (Boot's ratio sampler would still record a share of the spans for nobody). */
	@Bean
	@ConditionalOnBooleanProperty(name = ENABLED, havingValue = false)
	Sampler tracingOff() {
		return Sampler.alwaysOff();
	}
}
