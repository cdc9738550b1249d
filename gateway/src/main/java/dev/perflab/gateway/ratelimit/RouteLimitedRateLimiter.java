package dev.perflab.gateway.ratelimit;

import org.springframework.cloud.gateway.filter.ratelimit.AbstractRateLimiter;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.support.ConfigurationService;

/**
 * A limiter whose routes' limits are {@link RouteLimits}: a route's own arguments (under
 * {@code configurationPropertyName}) are bound over the limiter's default, and a route without any has the default.
 */
abstract class RouteLimitedRateLimiter extends AbstractRateLimiter<RedisRateLimiter.Config> {

	private final RouteLimits limits;

	RouteLimitedRateLimiter(String configurationPropertyName, ConfigurationService configurationService,
			RouteLimits limits) {
		super(RedisRateLimiter.Config.class, configurationPropertyName, configurationService);
		this.limits = limits;
	}

	/** A route's own arguments are bound over a copy of the default (one that names only its burst keeps the rate). */
	@Override
	public RedisRateLimiter.Config newConfig() {
		return limits.newConfig();
	}

	/** The route's limit. */
	RedisRateLimiter.Config limit(String routeId) {
		return limits.of(getConfig(), routeId);
	}
}
