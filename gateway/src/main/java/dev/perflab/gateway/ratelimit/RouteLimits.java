package dev.perflab.gateway.ratelimit;

import java.util.Map;

import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.RouteDefinitionRouteLocator;

/**
 * The limits of one limiter's routes, stated once: the gateway's default for that kind of key
 * ({@code perflab.gateway.rate-limit.*}), and a route's own {@code <limiter>.replenishRate},
 * {@code burstCapacity} or {@code requestedTokens} arguments over it only where that route differs.
 */
final class RouteLimits {

	private final int replenishRate;

	private final long burstCapacity;

	/** The default as the routes without arguments read it, made once (a limit is looked up on every request). */
	private final RedisRateLimiter.Config defaults;

	RouteLimits(int replenishRate, long burstCapacity) {
		this.replenishRate = replenishRate;
		this.burstCapacity = burstCapacity;
		this.defaults = newConfig();
	}

	/**
	 * A new copy of the default, for a route's own arguments to be bound over (one that names only its burst keeps
	 * the default rate).
	 */
	RedisRateLimiter.Config newConfig() {
		return new RedisRateLimiter.Config().setReplenishRate(replenishRate)
			.setBurstCapacity(burstCapacity)
			.setRequestedTokens(1);
	}

	/** The route's limit: its own arguments over the default, the default filters' arguments, or the default. */
	RedisRateLimiter.Config of(Map<String, RedisRateLimiter.Config> routes, String routeId) {
		RedisRateLimiter.Config config = routes.get(routeId);
		if (config == null) {
			config = routes.get(RouteDefinitionRouteLocator.DEFAULT_FILTERS);
		}
		return config != null ? config : defaults;
	}

}
