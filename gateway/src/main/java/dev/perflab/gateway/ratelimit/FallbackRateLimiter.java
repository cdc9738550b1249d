package dev.perflab.gateway.ratelimit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.ratelimit.AbstractRateLimiter;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.RouteDefinitionRouteLocator;
import org.springframework.cloud.gateway.support.ConfigurationService;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The {@code RequestRateLimiter}'s limiter: Spring Cloud Gateway's Redis token bucket (same script, same keys, same
 * {@code redis-rate-limiter.*} route arguments), but Redis gets a short deadline and, when it misses it or fails,
 * the decision is taken at once by an in-process bucket of the same rate divided among the gateway replicas.
 * <p>
 * The stock {@link RedisRateLimiter} waited for the client's 2 s command timeout and then let the request through:
 * with Redis down every request paid 2 s and nothing was limited. Here a dead Redis costs one bounded attempt per
 * {@code redisRetry} (one request probes, the others decide locally), and Redis takes over again on the first
 * probe that answers. Gauge {@code perflab.gateway.rate.limiter.local} is 1 while decisions are local.
 */
public class FallbackRateLimiter extends AbstractRateLimiter<RedisRateLimiter.Config> {

	private static final Logger log = LoggerFactory.getLogger(FallbackRateLimiter.class);

	private final ReactiveStringRedisTemplate redis;

	private final RedisScript<List<Long>> script;

	private final Duration redisTimeout;

	private final long retryNanos;

	private final LocalBuckets local;

	private final AtomicBoolean inLocalMode = new AtomicBoolean();

	private final AtomicBoolean probing = new AtomicBoolean();

	private volatile long retryAt;

	public FallbackRateLimiter(ReactiveStringRedisTemplate redis, RedisScript<List<Long>> script,
			ConfigurationService configurationService, Duration redisTimeout, Duration redisRetry, int replicas,
			MeterRegistry meters) {
		super(RedisRateLimiter.Config.class, RedisRateLimiter.CONFIGURATION_PROPERTY_NAME, configurationService);
		this.redis = redis;
		this.script = script;
		this.redisTimeout = redisTimeout;
		this.retryNanos = redisRetry.toNanos();
		this.local = new LocalBuckets(replicas);
		Gauge.builder("perflab.gateway.rate.limiter.local", inLocalMode, b -> b.get() ? 1 : 0)
			.description("1 while rate limits are decided by this instance's own buckets (Redis unreachable)")
			.register(meters);
	}

	@Override
	public Mono<Response> isAllowed(String routeId, String id) {
		RedisRateLimiter.Config config = config(routeId);
		if (inLocalMode.get()) {
			if (System.nanoTime() - retryAt < 0 || !probing.compareAndSet(false, true)) {
				return Mono.just(local(routeId, id, config));
			}
			return redis(routeId, id, config).doFinally(signal -> probing.set(false));
		}
		return redis(routeId, id, config);
	}

	/**
	 * Opens the Redis connection and loads the script before the first request: a cold connection takes longer
	 * than {@code redisTimeout}, and the first callers would otherwise be decided locally for no reason. Waits at
	 * most {@code wait}; a Redis that is down at start only means the first decision goes local.
	 */
	public void warmUp(Duration wait) {
		try {
			redis.execute(script, List.of("request_rate_limiter.{warm-up}.tokens", "request_rate_limiter.{warm-up}.timestamp"),
					List.of("1", "1", "", "1"))
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

	private Mono<Response> redis(String routeId, String id, RedisRateLimiter.Config config) {
		String prefix = "request_rate_limiter.{" + routeId + "." + id + "}.";
		List<String> keys = List.of(prefix + "tokens", prefix + "timestamp");
		List<String> args = List.of(config.getReplenishRate() + "", config.getBurstCapacity() + "", "",
				config.getRequestedTokens() + "");
		return redis.execute(script, keys, args)
			.reduce(new ArrayList<Long>(), (all, some) -> {
				all.addAll(some);
				return all;
			})
			.timeout(redisTimeout)
			.map(result -> {
				backToRedis();
				return new Response(result.get(0) == 1L, headers(config, result.get(1)));
			})
			.onErrorResume(e -> {
				toLocal(e);
				return Mono.just(local(routeId, id, config));
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

	private RedisRateLimiter.Config config(String routeId) {
		Map<String, RedisRateLimiter.Config> configs = getConfig();
		RedisRateLimiter.Config config = configs.get(routeId);
		if (config == null) {
			config = configs.get(RouteDefinitionRouteLocator.DEFAULT_FILTERS);
		}
		if (config == null) {
			throw new IllegalArgumentException("No rate limit configured for route " + routeId);
		}
		return config;
	}

	private static Map<String, String> headers(RedisRateLimiter.Config config, long remaining) {
		return Map.of(RedisRateLimiter.REMAINING_HEADER, Long.toString(remaining),
				RedisRateLimiter.REPLENISH_RATE_HEADER, String.valueOf(config.getReplenishRate()),
				RedisRateLimiter.BURST_CAPACITY_HEADER, String.valueOf(config.getBurstCapacity()),
				RedisRateLimiter.REQUESTED_TOKENS_HEADER, String.valueOf(config.getRequestedTokens()));
	}
}
