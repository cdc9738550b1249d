package dev.perflab.gateway;

import java.util.Locale;

import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.observation.ObservationPredicate;
import reactor.core.publisher.Flux;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

import dev.perflab.gateway.edge.EdgeCache;
import dev.perflab.gateway.edge.EdgeCacheFilter;
import dev.perflab.gateway.edge.EdgeInvalidationListener;
import dev.perflab.gateway.edge.RevalidatedBodies;
import dev.perflab.gateway.edge.RevalidatedBodyCacheGatewayFilterFactory;
import dev.perflab.gateway.edge.ServeFreshFilter;
import dev.perflab.gateway.shutdown.SendQueueDrain;
import dev.perflab.gateway.web.ProxyHeadersFilter;
import dev.perflab.gateway.web.RoutingFilter;

@Configuration(proxyBeanMethods = false)
class GatewayConfiguration {

	/**
	 * Redirects skip the per-request HTTP server observation: on an edge-cache hit it costs more than the answer
	 * (measured: 78k vs 43k redirects/s). Hits and misses are counted by perflab.gateway.edge.cache, proxied
	 * misses are timed by the gateway's route metrics.
	 */
	@Bean
	ObservationPredicate skipRedirectObservations() {
		return (name, context) -> !(context instanceof ServerRequestObservationContext server
				&& server.getCarrier().getPath().value().startsWith("/s/"));
	}

	/** At shutdown, the answers' last bytes sent before the pod's network goes ({@link SendQueueDrain}). */
	@Bean
	SendQueueDrain sendQueueDrain(Environment environment, GatewayProperties properties) {
		return new SendQueueDrain(() -> environment.getProperty("local.server.port", Integer.class, 0),
				properties.sendDrain());
	}

	/**
	 * The gateway's lab switch, exported as the services export theirs ({@code perflab_lab_switch_info}, the platform's
	 * LabSwitches): the overview dashboard and an A/B report show which design answered.
	 */
	@Bean
	MeterBinder gatewayLabSwitches(GatewayProperties properties) {
		return registry -> Gauge.builder("perflab.lab.switch.info", () -> 1)
			.description("A lab switch of this service and the value in effect (1)")
			.tag("switch", "read-retry")
			.tag("value", properties.readRetry().name().toLowerCase(Locale.ROOT).replace('_', '-'))
			.register(registry);
	}

	/**
	 * One pass over the headers instead of three copies of them per proxied request: hop-by-hop, {@code Forwarded} and
	 * {@code X-Forwarded-*} removed by {@link ProxyHeadersFilter} (the list of hop-by-hop headers is fixed: Spring's
	 * {@code filter.remove-hop-by-hop.headers} setting no longer applies).
	 */
	@Bean
	static ProxyHeadersFilter.Replacement proxyHeadersFilterReplacement() {
		return new ProxyHeadersFilter.Replacement();
	}

	/**
	 * The route's response timeout on the whole answer, headers and body, in Spring Cloud Gateway's routing filter
	 * ({@link RoutingFilter}): a service that stalls halfway through a body ends the read instead of holding it.
	 */
	@Bean
	static RoutingFilter.Replacement routingFilterReplacement() {
		return new RoutingFilter.Replacement();
	}

	/** Named by routes as {@code RevalidatedBodyCache}; with the body cache off it passes every request through. */
	@Bean
	RevalidatedBodyCacheGatewayFilterFactory revalidatedBodyCacheGatewayFilterFactory(GatewayProperties properties,
			MeterRegistry meters) {
		return new RevalidatedBodyCacheGatewayFilterFactory(
				properties.bodyCache().enabled() ? new RevalidatedBodies(properties.bodyCache(), meters) : null);
	}

	@Bean
	ServeFreshFilter revalidatedBodyCacheServeFresh() {
		return new ServeFreshFilter();
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "perflab.gateway.edge-cache.enabled", havingValue = "true", matchIfMissing = true)
	static class EdgeCacheConfiguration {

		@Bean
		EdgeCache edgeCache(GatewayProperties properties, MeterRegistry meters) {
			return new EdgeCache(properties.edgeCache(), meters);
		}

		@Bean
		EdgeCacheFilter edgeCacheFilter(EdgeCache cache) {
			return new EdgeCacheFilter(cache);
		}

		@Bean
		EdgeInvalidationListener edgeInvalidationListener(EdgeCache cache, ReactiveRedisConnectionFactory connections,
				ReactiveStringRedisTemplate redis, ObjectProvider<ClientResources> lettuce) {
			ClientResources resources = lettuce.getIfAvailable();
			Flux<?> losses = resources == null ? Flux.never()
					: resources.eventBus().get().filter(DisconnectedEvent.class::isInstance);
			return new EdgeInvalidationListener(cache, connections, redis, losses);
		}
	}
}
