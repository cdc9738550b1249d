package dev.perflab.gateway.ratelimit;

import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.support.ConfigurationService;

/**
 * Per-instance token buckets, no Redis: the per-address limit of the public routes
 * ({@code rate-limiter: "#{@localRateLimiter}"}, arguments {@code local-rate-limiter.*}). A public request never
 * pays a Redis round trip for its limit (a proxied redirect is the gateway's cheapest hop, and the benchmark's); each
 * replica allows its share ({@code 1/replicas}) of the configured rate, so together they allow about that rate. A
 * route without {@code local-rate-limiter.*} arguments has the gateway's per-address default
 * ({@code perflab.gateway.rate-limit.per-ip.*}).
 */
public class LocalRateLimiter extends RouteLimitedRateLimiter {

	public static final String CONFIGURATION_PROPERTY_NAME = "local-rate-limiter";

	private final LocalBuckets buckets;

	LocalRateLimiter(ConfigurationService configurationService, int replicas, RouteLimits limits) {
		super(CONFIGURATION_PROPERTY_NAME, configurationService, limits);
		this.buckets = new LocalBuckets(replicas);
	}

	@Override
	public Mono<Response> isAllowed(String routeId, String id) {
		RedisRateLimiter.Config config = limit(routeId);
		LocalBuckets.Decision decision = buckets.take(routeId, id, config.getReplenishRate(), config.getBurstCapacity(),
				config.getRequestedTokens());
		return Mono.just(new Response(decision.allowed(),
				Map.of(RedisRateLimiter.REMAINING_HEADER, Long.toString(decision.remaining()))));
	}
}
