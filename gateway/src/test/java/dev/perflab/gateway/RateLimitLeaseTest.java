package dev.perflab.gateway;

import java.net.http.HttpResponse;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leases: with a burst of 200 a caller's requests take tokens from Redis ten at a time, so a caller inside its limit
 * costs Redis a tenth of the round trips, and the limit itself is exactly what Redis grants: 200 of 240 requests in
 * a burst (plus what the bucket refills meanwhile), the rest 429.
 */
class RateLimitLeaseTest extends GatewayTestSupport {

	static final DedicatedRedis REDIS = new DedicatedRedis();

	@DynamicPropertySource
	static void ownRedisAndALargerBurst(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.port", REDIS::port);
		registry.add("perflab.gateway.rate-limit.replenish-rate", () -> "1");
		registry.add("perflab.gateway.rate-limit.burst-capacity", () -> "200");
		registry.add("perflab.gateway.rate-limit.lease", () -> "10");
		registry.add("perflab.gateway.rate-limit.lease-life", () -> "30s");
	}

	@Test
	void aCallerInsideItsLimitCostsOneRedisRoundTripPerLease() {
		String token = Tokens.valid(user(), "1");
		double callsBefore = redisCalls();
		long evalsBefore = scriptRunsInRedis();
		for (int i = 0; i < 100; i++) {
			HttpResponse<String> response = send(get("/v1/short-links/lease").header("Authorization", "Bearer " + token));
			assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
			if (i == 0) {
				// Redis kept 190 after a lease of 10, of which this request spent one
				assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue("199");
			}
		}
		assertThat(redisCalls() - callsBefore).as("round trips counted by the gateway for 100 requests").isEqualTo(10);
		assertThat(scriptRunsInRedis() - evalsBefore).as("scripts Redis itself ran for them").isEqualTo(10);
	}

	@Test
	void theLimitIsWhatRedisGrantsNotMore() {
		String token = Tokens.valid(user(), "1");
		long start = System.nanoTime();
		int allowed = 0;
		int refused = 0;
		for (int i = 0; i < 240; i++) {
			int status = send(get("/v1/short-links/limit").header("Authorization", "Bearer " + token)).statusCode();
			if (status == 200) {
				allowed++;
			}
			else {
				assertThat(status).isEqualTo(429);
				refused++;
			}
		}
		long refilled = (System.nanoTime() - start) / 1_000_000_000L + 1;
		assertThat(allowed).as("allowed of 240 in a burst of 200 refilling 1/s (%d s)", refilled)
			.isBetween(200, 200 + (int) refilled);
		assertThat(refused).isPositive();
	}

	private double redisCalls() {
		return meters.get("perflab.gateway.rate.limiter.redis.calls").counter().count();
	}

	/** EVAL and EVALSHA calls Redis counted (INFO commandstats). */
	private long scriptRunsInRedis() {
		Properties stats = redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info("commandstats"));
		long calls = 0;
		for (String command : new String[] { "cmdstat_evalsha", "cmdstat_eval" }) {
			String value = stats.getProperty(command);
			if (value != null) {
				calls += Long.parseLong(value.replaceAll("^calls=(\\d+),.*$", "$1"));
			}
		}
		return calls;
	}
}
