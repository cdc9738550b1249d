package dev.perflab.gateway.ratelimit;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter's bucket script in the local stack's Redis: time counted to the microsecond (a bucket emptied just before
 * a second's edge is not full again after it) and a bucket that refills in under a second is still kept.
 * <p>
 * Each check is a trial bracketed by Redis's own clock: a trial that took longer than the check allows (the test
 * thread stalled, so the bucket may rightly have refilled) is taken again, never judged.
 */
class TokenBucketScriptTest {

	private static final RedisScript<List<Long>> SCRIPT = FallbackRateLimiter.tokenBucket();

	private static LettuceConnectionFactory connections;

	private static StringRedisTemplate redis;

	private final List<String> keys = new ArrayList<>();

	@BeforeAll
	static void connect() {
		int port = Integer.parseInt(System.getenv().getOrDefault("PERFLAB_REDIS_PORT", "16379"));
		connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		connections.afterPropertiesSet();
		redis = new StringRedisTemplate(connections);
	}

	@AfterAll
	static void close() {
		connections.destroy();
	}

	@Test
	void aBucketEmptiedBeforeASecondsEdgeIsNotFullAgainAfterIt() {
		// 1 token a second, a burst of 1: emptied in the middle of a second, asked again just after the next edge
		List<Long> again = trial(1.0, bucket -> {
			awaitFractionOfSecond(0.3, 0.6);
			assertThat(take(bucket, 1, 1, 1)).as("a new bucket is full").containsExactly(1L, 0L);
			long second = (long) redisSeconds();
			while ((long) redisSeconds() == second) {
				Thread.onSpinWait();
			}
			return take(bucket, 1, 1, 1);
		});
		assertThat(again).as("under a second later, less than one token has come back").containsExactly(0L, 0L);
	}

	@Test
	void aBucketThatRefillsInUnderASecondIsKeptAndLimits() {
		// 10 tokens a second, a burst of 4: full again after 0.4 s (kept at least a second, not for 0 s)
		List<Long> again = trial(0.4, bucket -> {
			assertThat(take(bucket, 10, 4, 4)).containsExactly(1L, 0L);
			return take(bucket, 10, 4, 4);
		});
		assertThat(again).as("the burst taken, asked again at once").first().isEqualTo(0L);
	}

	/**
	 * Runs {@code check} on a new bucket until one run took less than {@code withinSeconds} of Redis's clock (at most
	 * five runs) and returns that run's last answer.
	 */
	private List<Long> trial(double withinSeconds, Function<String, List<Long>> check) {
		for (int run = 0; run < 5; run++) {
			String bucket = "request_rate_limiter.{test." + UUID.randomUUID() + "}.";
			keys.add(bucket + "tokens");
			keys.add(bucket + "timestamp");
			double start = redisSeconds();
			List<Long> answer = check.apply(bucket);
			if (redisSeconds() - start < withinSeconds) {
				return answer;
			}
		}
		throw new AssertionError("five runs in a row took longer than " + withinSeconds + " s: the machine is too busy to judge");
	}

	private List<Long> take(String bucket, int rate, int burst, int tokens) {
		return redis.execute(SCRIPT, List.of(bucket + "tokens", bucket + "timestamp"), Integer.toString(rate),
				Integer.toString(burst), Integer.toString(tokens));
	}

	private static double redisSeconds() {
		Long millis = redis.execute((RedisCallback<Long>) c -> c.serverCommands().time());
		return millis / 1000.0;
	}

	private static void awaitFractionOfSecond(double from, double to) {
		double fraction;
		do {
			fraction = redisSeconds() % 1;
		}
		while (fraction < from || fraction >= to);
	}

	@AfterEach
	void removeBuckets() {
		redis.delete(keys);
	}
}
