package dev.perflab.gateway.ratelimit;

import java.net.InetSocketAddress;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.cloud.gateway.filter.ratelimit.KeyResolver;
import org.springframework.cloud.gateway.support.ConfigurationService;
import org.springframework.cloud.gateway.support.ipresolver.RemoteAddressResolver;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.web.server.ServerWebExchange;

import dev.perflab.gateway.GatewayProperties;
import dev.perflab.gateway.auth.EdgeAuthFilter;

/**
 * Rate limits: the limiters {@code RequestRateLimiter} route filters use (Redis with a local fallback by default;
 * {@code #{@localRateLimiter}} on the public routes), each with its default limit from {@code perflab.gateway.rate-limit}
 * (a route states its own only where it differs), and the two keys route files name,
 * {@code #{@callerKeyResolver}} (API routes) and {@code #{@clientAddressKeyResolver}} (public routes).
 */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

	@Bean
	@Primary
	FallbackRateLimiter fallbackRateLimiter(ReactiveStringRedisTemplate redis, ConfigurationService configurationService,
			GatewayProperties properties, MeterRegistry meters) {
		GatewayProperties.RateLimit limits = properties.rateLimit();
		return new FallbackRateLimiter(redis, configurationService, limits.redisTimeout(),
				limits.redisRetry(), limits.replicas(), new RouteLimits(limits.replenishRate(), limits.burstCapacity()),
				new Leases(limits.lease(), limits.leaseLife()), meters);
	}

	@Bean
	LocalRateLimiter localRateLimiter(ConfigurationService configurationService, GatewayProperties properties) {
		GatewayProperties.RateLimit limits = properties.rateLimit();
		return new LocalRateLimiter(configurationService, limits.replicas(),
				new RouteLimits(limits.perIp().replenishRate(), limits.perIp().burstCapacity()));
	}

	/** Before readiness: Spring Boot reports ready only after the ApplicationReadyEvent listeners ran. */
	@EventListener(ApplicationReadyEvent.class)
	void warmUpRateLimiter(ApplicationReadyEvent event) {
		event.getApplicationContext().getBean(FallbackRateLimiter.class).warmUp(Duration.ofSeconds(2));
	}

	/**
	 * The request's remote address: the connection's peer, or the client a trusted proxy names, as
	 * {@code dev.perflab.gateway.forwarded} decided it when the request arrived (no header is read here again).
	 */
	@Bean
	RemoteAddressResolver clientAddressResolver() {
		return new RemoteAddressResolver() {
		};
	}

	/**
	 * The verified caller, {@code caller:<office>:<user>}: a user id is only unique within its office, so two
	 * offices' "alice" must not share (or drain) one bucket. Without a verified caller, the client address.
	 */
	@Bean
	@Primary
	KeyResolver callerKeyResolver(RemoteAddressResolver addresses) {
		return exchange -> {
			Object user = exchange.getAttributes().get(EdgeAuthFilter.USER_ATTRIBUTE);
			if (user != null) {
				return Mono.just("caller:" + exchange.getAttributes().get(EdgeAuthFilter.OFFICE_ATTRIBUTE) + ":" + user);
			}
			return Mono.just(address(exchange, addresses));
		};
	}

	/** The client address, for the public routes (no caller there by design). */
	@Bean
	KeyResolver clientAddressKeyResolver(RemoteAddressResolver addresses) {
		return exchange -> Mono.just(address(exchange, addresses));
	}

	private static String address(ServerWebExchange exchange, RemoteAddressResolver addresses) {
		InetSocketAddress remote = addresses.resolve(exchange);
		return "ip:" + (remote == null || remote.getAddress() == null ? "unknown" : remote.getAddress().getHostAddress());
	}
}
