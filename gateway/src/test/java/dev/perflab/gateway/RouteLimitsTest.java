package dev.perflab.gateway;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;

import dev.perflab.gateway.ratelimit.FallbackRateLimiter;
import dev.perflab.gateway.ratelimit.LocalRateLimiter;
import dev.perflab.gateway.routes.RouteDefaults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running gateway's routes (the repository's files, as {@code RouteDefaultsTest} reads them without Spring):
 * each is limited by the limiter of its class, at the numbers this context sets ({@code perflab.gateway.rate-limit.*}),
 * and by no other.
 */
class RouteLimitsTest extends GatewayTestSupport {

	@Autowired
	RouteLocator routes;

	@Autowired
	FallbackRateLimiter callers;

	@Autowired
	LocalRateLimiter addresses;

	@Autowired
	GatewayProperties properties;

	@Test
	void everyLoadedRouteIsLimitedByTheLimiterOfItsClassAtTheConfiguredRates() {
		List<Route> loaded = routes.getRoutes().collectList().block();
		assertThat(loaded).extracting(Route::getId)
			.containsExactlyInAnyOrderElementsOf(RouteDefaultsTest.AS_BEFORE.keySet());

		GatewayProperties.RateLimit limits = properties.rateLimit();
		for (Route route : loaded) {
			String id = route.getId();
			RedisRateLimiter.Config perCaller = callers.getConfig().get(id);
			RedisRateLimiter.Config perAddress = addresses.getConfig().get(id);
			if (RouteDefaultsTest.AS_BEFORE.get(id).startsWith("callerKeyResolver ")) {
				assertThat(route.getMetadata()).containsEntry(RouteDefaults.RATE_LIMIT_METADATA, "caller");
				assertThat(perAddress).as("%s in the per-address limiter", id).isNull();
				assertThat(perCaller).as("%s in the per-caller limiter", id).isNotNull();
				assertBucket(perCaller, limits.replenishRate(), limits.burstCapacity());
			}
			else {
				assertThat(route.getMetadata()).containsEntry(RouteDefaults.RATE_LIMIT_METADATA, "client-address");
				assertThat(perCaller).as("%s in the per-caller limiter", id).isNull();
				assertThat(perAddress).as("%s in the per-address limiter", id).isNotNull();
				assertBucket(perAddress, limits.perIp().replenishRate(), limits.perIp().burstCapacity());
			}
		}
		// this context's own numbers (GatewayTestSupport), not the defaults: the routes follow the settings
		assertThat(limits.replenishRate()).isEqualTo(5);
	}

	private static void assertBucket(RedisRateLimiter.Config config, int replenishRate, int burstCapacity) {
		assertThat(config.getReplenishRate()).isEqualTo(replenishRate);
		assertThat(config.getBurstCapacity()).isEqualTo(burstCapacity);
		assertThat(config.getRequestedTokens()).isEqualTo(1);
	}
}
