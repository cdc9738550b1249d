package dev.perflab.gateway.ratelimit;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.cloud.gateway.event.FilterArgsEvent;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;
import org.springframework.cloud.gateway.support.ConfigurationService;
import org.springframework.core.convert.support.DefaultConversionService;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A route's limit is the gateway's default for its kind of key unless the route states its own, bound the way Spring
 * Cloud Gateway binds a route's filter arguments (its FilterArgsEvent), and only what it states differs.
 */
class RouteLimitsTest {

	private final ConfigurationService binding = new ConfigurationService(new DefaultListableBeanFactory(),
			DefaultConversionService::getSharedInstance, () -> null);

	@Test
	void aRouteWithoutArgumentsHasTheDefaultAndARouteWithArgumentsOnlyWhatItStates() {
		LocalRateLimiter limiter = new LocalRateLimiter(binding, 1, new RouteLimits(1, 5));
		limiter.onApplicationEvent(new FilterArgsEvent(this, "plain", Map.of("key-resolver", "#{@clientAddressKeyResolver}")));
		limiter.onApplicationEvent(new FilterArgsEvent(this, "stricter", Map.of("local-rate-limiter.burstCapacity", "3")));

		assertThat(limiter.getConfig()).doesNotContainKey("plain");
		var stricter = limiter.getConfig().get("stricter");
		assertThat(stricter.getBurstCapacity()).isEqualTo(3);
		assertThat(stricter.getReplenishRate()).as("the default's rate, not the config class's 0").isEqualTo(1);
		assertThat(stricter.getRequestedTokens()).isEqualTo(1);

		// a burst of 5 at 1/s for the plain route: five allowed, the sixth refused (a token comes back only after 1 s)
		assertThat(allowed(limiter, "plain", 6)).isEqualTo(5);
		// the stricter route: its own burst
		assertThat(allowed(limiter, "stricter", 6)).isEqualTo(3);
	}

	private static int allowed(RateLimiter<?> limiter, String routeId, int requests) {
		int allowed = 0;
		for (int i = 0; i < requests; i++) {
			RateLimiter.Response response = limiter.isAllowed(routeId, "ip:192.0.2.1").block();
			allowed += response != null && response.isAllowed() ? 1 : 0;
		}
		return allowed;
	}

}
