package dev.perflab.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rate limits against a Redis of this class's own (stopped and started again here): per caller (office + user) on
 * the API routes, per client address on the public routes, and limited, not open, while Redis is down.
 */
@TestPropertySource(properties = { "perflab.gateway.rate-limit.per-ip.replenish-rate=5",
		"perflab.gateway.rate-limit.per-ip.burst-capacity=5" })
class RateLimitTest extends GatewayTestSupport {

	static final DedicatedRedis REDIS = new DedicatedRedis();

	@DynamicPropertySource
	static void ownRedis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.port", REDIS::port);
	}

	@Test
	void aBurstWhileRedisIsDownIsLimitedAtOnceAndRedisTakesOverWhenBack() {
		String token = Tokens.valid(user(), "1");
		assertThat(send(get("/v1/short-links/r").header("Authorization", "Bearer " + token)).statusCode()).isEqualTo(200);
		assertThat(rateLimiterLocal()).as("Redis decides while it answers").isZero();

		REDIS.stop();
		try {
			String burster = Tokens.valid(user(), "1");
			List<Integer> statuses = new ArrayList<>();
			long slowest = 0;
			long start = System.nanoTime();
			for (int i = 0; i < 20; i++) {
				long t0 = System.nanoTime();
				HttpResponse<String> response = send(get("/v1/short-links/r").header("Authorization", "Bearer " + burster));
				slowest = Math.max(slowest, System.nanoTime() - t0);
				statuses.add(response.statusCode());
				if (response.statusCode() == 429) {
					assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
					assertThat(response.body()).contains("\"type\":\"https://perflab.dev/problems/rate-limited\"");
				}
			}
			long total = System.nanoTime() - start;
			// burst 5 per caller: the first ones pass, the rest are refused, none waits for the dead Redis
			assertThat(statuses).as("statuses with Redis down").contains(429);
			assertThat(statuses.stream().filter(s -> s == 200).count()).isBetween(1L, 10L);
			assertThat(Duration.ofNanos(slowest)).as("slowest decision").isLessThan(Duration.ofMillis(1000));
			assertThat(Duration.ofNanos(total)).as("20 requests").isLessThan(Duration.ofSeconds(3));
			assertThat(rateLimiterLocal()).as("decisions are local while Redis is down").isEqualTo(1);
		}
		finally {
			REDIS.start();
		}

		// a request is what finds Redis back
		String later = Tokens.valid(user(), "1");
		await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			send(get("/v1/short-links/r").header("Authorization", "Bearer " + later));
			assertThat(rateLimiterLocal()).as("Redis decides again once it is back").isZero();
		});
	}

	@Test
	void theCallerKeyIsOfficeAndUserNotUserAlone() {
		String user = user();
		String first = Tokens.valid(user, "1");
		int limited = 0;
		for (int i = 0; i < 15 && limited == 0; i++) {
			if (send(get("/v1/short-links/o").header("Authorization", "Bearer " + first)).statusCode() == 429) {
				limited++;
			}
		}
		assertThat(limited).as("the caller in office 1 is limited").isPositive();
		HttpResponse<String> otherOffice = send(
				get("/v1/short-links/o").header("Authorization", "Bearer " + Tokens.valid(user, "2")));
		assertThat(otherOffice.statusCode()).as("the same user id in another office has its own bucket").isEqualTo(200);
	}

	@Test
	void publicRoutesAreLimitedPerClientAddressButEdgeCacheHitsAreNot() throws Exception {
		// the edge cache stores only while its invalidation feed is subscribed: after a test that stopped this class's
		// Redis, the feed comes back on its own backoff (up to 5 s), later than the limiter, which a request finds back
		String cached = code();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
			HttpResponse<String> redirect = send(get("/s/" + cached));
			assertThat(redirect.statusCode()).isEqualTo(302);
			assertThat(redirect.headers().firstValue("X-Perflab-Edge-Cache")).as("the link in the edge cache").hasValue("hit");
		});

		List<Integer> misses = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			String code = code();
			UPSTREAM.cacheControl.put(code, "no-store");
			misses.add(send(get("/s/" + code)).statusCode());
		}
		assertThat(misses).as("redirects that reach the shortener").contains(302, 429);

		for (int i = 0; i < 20; i++) {
			HttpResponse<String> hit = send(get("/s/" + cached));
			assertThat(hit.statusCode()).as("an edge-cache hit costs nothing behind the gateway").isEqualTo(302);
			assertThat(hit.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		}

		List<CompletableFuture<HttpResponse<String>>> receipts = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			receipts.add(CLIENT.sendAsync(get("/v2/office/1/receipt-confirm/" + code()).build(),
					HttpResponse.BodyHandlers.ofString()));
		}
		List<HttpResponse<String>> answered = receipts.stream().map(CompletableFuture::join).toList();
		assertThat(answered).as("receipt confirms from one address").anySatisfy(r -> {
			assertThat(r.statusCode()).isEqualTo(429);
			assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		});
	}
}
