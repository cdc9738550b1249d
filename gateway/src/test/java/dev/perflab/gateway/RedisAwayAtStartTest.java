package dev.perflab.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/**
 * A gateway started while its Redis is away (a Redis of this class's own, stopped before the context starts): it
 * starts, turns ready and answers, its rate limits decided locally and its edge cache off (nothing is kept without
 * the invalidation feed); once Redis is back, the edge cache subscribes and keeps redirects, and Redis decides the
 * limits again. Before, the edge cache's listener container connected in its constructor: no Redis, no gateway.
 */
class RedisAwayAtStartTest extends GatewayTestSupport {

	static final DedicatedRedis REDIS = new DedicatedRedis();

	@DynamicPropertySource
	static void redisAway(DynamicPropertyRegistry registry) {
		REDIS.stop();
		registry.add("spring.data.redis.port", REDIS::port);
	}

	@Test
	void startsAndServesWithoutRedisAndTakesItUpWhenItIsBack() {
		HttpResponse<String> readiness = send(HttpRequest.newBuilder(
				URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness")));
		assertThat(readiness.statusCode()).as("ready without Redis").isEqualTo(200);

		String code = code();
		for (int i = 0; i < 2; i++) {
			HttpResponse<String> redirect = send(get("/s/" + code));
			assertThat(redirect.statusCode()).isEqualTo(302);
			assertThat(redirect.headers().firstValue("Location")).hasValue("https://example.com/" + code);
			assertThat(redirect.headers().firstValue("X-Perflab-Edge-Cache")).as("no invalidation feed, nothing kept")
				.hasValue("miss");
		}
		assertThat(UPSTREAM.hits(code)).isEqualTo(2);
		HttpResponse<String> read = send(get("/v1/short-links/r").header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(rateLimiterLocal()).as("the caller's limit decided locally while Redis is away").isEqualTo(1);

		REDIS.start();
		await("the edge cache subscribed and keeping redirects").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache").orElse("none"),
					equalTo("hit"));
		await("Redis deciding the limits again").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> {
				send(get("/v1/short-links/r").header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
				assertThat(rateLimiterLocal()).isZero();
			});
	}
}
