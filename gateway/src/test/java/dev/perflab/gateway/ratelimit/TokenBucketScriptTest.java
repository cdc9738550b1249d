package dev.perflab.gateway.ratelimit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter's bucket script in the local stack's Redis: time counted to the microsecond (a bucket emptied just before
 * a second's edge is not full again after it), a bucket that refills in under a second still kept, and every command
 * it runs allowed to the gateway's Redis user as the chart makes it.
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
		connections = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port()));
		connections.afterPropertiesSet();
		redis = new StringRedisTemplate(connections);
	}

	@AfterAll
	static void close() {
		connections.destroy();
	}

	@AfterEach
	void removeBuckets() {
		redis.delete(keys);
	}

	/** An {@code ACL} command in the local stack's Redis, as its default user. */
	private static void acl(List<String> arguments) {
		RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
			arguments.forEach(args::add);
			connection.sync().dispatch(CommandType.ACL, new ArrayOutput<>(StringCodec.UTF8), args);
		}
		finally {
			client.shutdown();
		}
	}

	/** The local stack's Redis. */
	private static int port() {
		return Integer.parseInt(System.getenv().getOrDefault("PERFLAB_REDIS_PORT", "16379"));
	}

	@Test
	void aBucketEmptiedBeforeASecondsEdgeIsNotFullAgainAfterIt() {
		// 1 token a second, a burst of 1: emptied in the middle of a second, asked again just after the next edge
		// (the wait for the window is not part of the run: the run is the first take until the second)
		List<Long> again = trial(1.0, () -> awaitFractionOfSecond(0.3, 0.6), bucket -> {
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

	@Test
	@SuppressWarnings("unchecked")
	void theChartsRedisUserForTheGatewayMayRunIt() throws IOException {
		// the ACL the chart gives the gateway's Redis user: a command of the script it may not run (TIME was one) makes
		// every call fail, and every decision local to one replica, silently
		Map<String, Object> values;
		try (InputStream in = Files.newInputStream(Path.of("").toAbsolutePath().resolveSibling("charts/perflab/values.yaml"))) {
			values = new Yaml().load(in);
		}
		Map<String, Object> redisValues = (Map<String, Object>) ((Map<String, Object>) values.get("stores")).get("redis");
		String rules = (String) ((Map<String, Object>) redisValues.get("acl")).get("gateway");
		String user = "perflab_test_" + UUID.randomUUID().toString().substring(0, 8);
		List<String> setUser = new ArrayList<>(List.of("SETUSER", user, "on", ">test", "resetkeys", "resetchannels"));
		setUser.addAll(List.of(rules.trim().split("\\s+")));
		acl(setUser);
		RedisStandaloneConfiguration asUser = new RedisStandaloneConfiguration("127.0.0.1", port());
		asUser.setUsername(user);
		asUser.setPassword("test");
		LettuceConnectionFactory userConnections = new LettuceConnectionFactory(asUser);
		try {
			userConnections.afterPropertiesSet();
			StringRedisTemplate asGateway = new StringRedisTemplate(userConnections);
			String bucket = "request_rate_limiter.{test." + UUID.randomUUID() + "}.";
			keys.add(bucket + "tokens");
			keys.add(bucket + "timestamp");
			assertThat(asGateway.execute(SCRIPT, List.of(bucket + "tokens", bucket + "timestamp"), "5", "5", "1"))
				.as("the script run as the chart's gateway user (%s)", rules)
				.containsExactly(1L, 4L);
		}
		finally {
			userConnections.destroy();
			acl(List.of("DELUSER", user));
		}
	}

	/**
	 * Runs {@code check} on a new bucket until one run took less than {@code withinSeconds} of Redis's clock (at most
	 * five runs) and returns that run's last answer.
	 */
	private List<Long> trial(double withinSeconds, Function<String, List<Long>> check) {
		return trial(withinSeconds, () -> {
		}, check);
	}

	/** As above, each run after {@code prepare}, which its time does not count. */
	private List<Long> trial(double withinSeconds, Runnable prepare, Function<String, List<Long>> check) {
		for (int run = 0; run < 5; run++) {
			String bucket = "request_rate_limiter.{test." + UUID.randomUUID() + "}.";
			keys.add(bucket + "tokens");
			keys.add(bucket + "timestamp");
			prepare.run();
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
}
