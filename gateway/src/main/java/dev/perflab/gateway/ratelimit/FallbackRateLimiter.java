package dev.perflab.gateway.ratelimit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.RouteDefinitionRouteLocator;
import org.springframework.cloud.gateway.support.ConfigurationService;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The {@code RequestRateLimiter}'s limiter: a token bucket per caller in Redis (Spring Cloud Gateway's keys and
 * {@code redis-rate-limiter.*} route arguments; its own script, {@code scripts/token-bucket.lua}, which counts
 * time to the microsecond where the stock one refills a whole second's tokens at once on each second's edge), but
 * Redis gets a short deadline and, when it misses it or fails, the decision is taken at once by an in-process bucket
 * of the same rate divided among the gateway replicas.
 * <p>
 * The stock {@link RedisRateLimiter} waited for the client's 2 s command timeout and then let the request through:
 * with Redis down every request paid 2 s and nothing was limited. Here a dead Redis costs one bounded attempt per
 * {@code redisRetry} (one request probes, the others decide locally), and Redis takes over again on the first
 * probe that answers. Gauge {@code perflab.gateway.rate.limiter.local} is 1 while decisions are local.
 * <p>
 * While Redis answers, one answer may cover several requests of a caller ({@link Leases}): the instance takes a few
 * tokens at once and spends them itself, so a caller well inside its limit costs one Redis round trip per lease, not
 * per request. Counter {@code perflab.gateway.rate.limiter.redis.calls} counts the round trips.
 */
public class FallbackRateLimiter extends RouteLimitedRateLimiter {

	private static final Logger log = LoggerFactory.getLogger(FallbackRateLimiter.class);

	private final ReactiveStringRedisTemplate redis;

	private final RedisScript<List<Long>> script;

	private final Duration redisTimeout;

	private final long retryNanos;

	private final LocalBuckets local;

	private final Leases leases;

	private final Counter redisCalls;

	private final AtomicBoolean inLocalMode = new AtomicBoolean();

	private final AtomicBoolean probing = new AtomicBoolean();

	private volatile long retryAt;

	public FallbackRateLimiter(ReactiveStringRedisTemplate redis, ConfigurationService configurationService, Duration redisTimeout, Duration redisRetry, int replicas,
			RouteLimits limits, Leases leases, MeterRegistry meters) {
		super(RedisRateLimiter.CONFIGURATION_PROPERTY_NAME, configurationService, limits);
		this.redis = redis;
		this.script = tokenBucket();
		this.redisTimeout = redisTimeout;
		this.retryNanos = redisRetry.toNanos();
		this.local = new LocalBuckets(replicas);
		this.leases = leases;
		this.redisCalls = Counter.builder("perflab.gateway.rate.limiter.redis.calls")
			.description("Round trips to Redis for rate-limit decisions (one may cover a lease of several requests)")
			.register(meters);
		Gauge.builder("perflab.gateway.rate.limiter.local", inLocalMode, b -> b.get() ? 1 : 0)
			.description("1 while rate limits are decided by this instance's own buckets (Redis unreachable)")
			.register(meters);
	}

	@Override
	public Mono<Response> isAllowed(String routeId, String id) {
		RedisRateLimiter.Config config = limit(routeId);
		if (inLocalMode.get()) {
			if (System.nanoTime() - retryAt < 0 || !probing.compareAndSet(false, true)) {
				return Mono.just(local(routeId, id, config));
			}
			return single(routeId, id, config).doFinally(signal -> probing.set(false));
		}
		if (!leases.enabled()) {
			return single(routeId, id, config);
		}
		String key = routeId + '\u0000' + id;
		int requested = config.getRequestedTokens();
		Leases.Lease lease = leases.current(key);
		if (lease != null) {
			long remaining = lease.take(requested);
			if (remaining >= 0) {
				return Mono.just(new Response(true, headers(config, remaining)));
			}
		}
		long ask = leases.ask(lease, requested, config.getBurstCapacity());
		return redis(routeId, id, config, ask).flatMap(answer -> {
			if (answer.allowed() || ask == requested || answer.local()) {
				return Mono.just(answer);
			}
			// fewer tokens left than the lease asked for: this request alone may still fit
			return redis(routeId, id, config, requested);
		}).map(answer -> {
			// the lease's bookkeeping: what Redis granted (spent here from now on) or that it refused
			if (!answer.local()) {
				if (answer.allowed()) {
					leases.granted(key, answer.tokens(), requested, answer.redisRemaining());
				}
				else {
					leases.refused(key, answer.redisRemaining());
				}
			}
			return answer.response(config, requested);
		});
	}

	/**
	 * Opens the Redis connection and loads the script before the first request: a cold connection takes longer
	 * than {@code redisTimeout}, and the first callers would otherwise be decided locally for no reason. Waits at
	 * most {@code wait}; a Redis that is down at start only means the first decision goes local.
	 */
	public void warmUp(Duration wait) {
		try {
			redis.execute(script, List.of("request_rate_limiter.{warm-up}.tokens", "request_rate_limiter.{warm-up}.timestamp"),
					List.of("1", "1", "1"))
				.then()
				.block(wait);
		}
		catch (RuntimeException e) {
			log.warn("rate limits: Redis not reachable at start ({}); the first decisions will be local", e.toString());
		}
	}

	/** True while decisions are taken locally. */
	public boolean isLocal() {
		return inLocalMode.get();
	}

	private Mono<Response> single(String routeId, String id, RedisRateLimiter.Config config) {
		return redis(routeId, id, config, config.getRequestedTokens())
			.map(answer -> answer.response(config, config.getRequestedTokens()));
	}

	/**
	 * One decision: Redis's verdict on {@code tokens} tokens and what Redis had left, or, when Redis did not answer,
	 * the local bucket's response.
	 */
	private record Answer(boolean allowed, long tokens, long redisRemaining, @Nullable Response localResponse) {

		boolean local() {
			return localResponse != null;
		}

		Response response(RedisRateLimiter.Config config, int requested) {
			if (localResponse != null) {
				return localResponse;
			}
			return new Response(allowed, headers(config, allowed ? redisRemaining + tokens - requested : redisRemaining));
		}
	}

	/** Redis's verdict on taking {@code tokens} tokens of the caller's bucket, or the local bucket's. */
	private Mono<Answer> redis(String routeId, String id, RedisRateLimiter.Config config, long tokens) {
		String prefix = "request_rate_limiter.{" + routeId + "." + id + "}.";
		List<String> keys = List.of(prefix + "tokens", prefix + "timestamp");
		List<String> args = List.of(config.getReplenishRate() + "", config.getBurstCapacity() + "", Long.toString(tokens));
		redisCalls.increment();
		return redis.execute(script, keys, args)
			.reduce(new ArrayList<Long>(), (all, some) -> {
				all.addAll(some);
				return all;
			})
			.timeout(redisTimeout)
			.map(result -> {
				backToRedis();
				return new Answer(result.get(0) == 1L, tokens, result.get(1), null);
			})
			.onErrorResume(e -> {
				toLocal(e);
				return Mono.just(new Answer(false, tokens, 0, local(routeId, id, config)));
			});
	}

	private Response local(String routeId, String id, RedisRateLimiter.Config config) {
		LocalBuckets.Decision decision = local.take(routeId, id, config.getReplenishRate(), config.getBurstCapacity(),
				config.getRequestedTokens());
		return new Response(decision.allowed(), headers(config, decision.remaining()));
	}

	private void toLocal(Throwable cause) {
		retryAt = System.nanoTime() + retryNanos;
		if (inLocalMode.compareAndSet(false, true)) {
			log.warn("rate limits: Redis did not answer within {} ({}); deciding locally, this instance's share of "
					+ "each limit (1/{}), until Redis answers again", redisTimeout, cause.toString(),
					local.replicas());
		}
	}

	private void backToRedis() {
		if (inLocalMode.compareAndSet(true, false)) {
			log.info("rate limits: Redis answers again; deciding in Redis");
		}
	}

	/**
	 * The bucket's script, its text read once (a script made from a resource checks on every call whether the
	 * resource changed: in a jar, by throwing and catching a FileNotFoundException per Redis round trip).
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	static RedisScript<List<Long>> tokenBucket() {
		try (InputStream in = new ClassPathResource("scripts/token-bucket.lua").getInputStream()) {
			return (RedisScript) RedisScript.of(new String(in.readAllBytes(), StandardCharsets.UTF_8), List.class);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static Map<String, String> headers(RedisRateLimiter.Config config, long remaining) {
		return Map.of(RedisRateLimiter.REMAINING_HEADER, Long.toString(remaining),
				RedisRateLimiter.REPLENISH_RATE_HEADER, String.valueOf(config.getReplenishRate()),
				RedisRateLimiter.BURST_CAPACITY_HEADER, String.valueOf(config.getBurstCapacity()),
				RedisRateLimiter.REQUESTED_TOKENS_HEADER, String.valueOf(config.getRequestedTokens()));
	}
}
