package dev.perflab.shortener.id;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.retry.RetryListener;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.core.retry.Retryable;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import dev.perflab.platform.ProblemException;

/**
 * Leases one of the 1,024 Snowflake worker ids per replica in Redis ({@code SET NX PX}), renews it, and stops
 * handing out ids once the lease could have expired: two replicas never share a worker id, so they never make the
 * same id in the same millisecond. A lease that lapsed while Redis was away is taken back when it returns, unless
 * another replica holds that id by then. A replica that starts while Redis does not answer yet (it starts beside it,
 * or under a load that slows its handshake) keeps asking for up to {@code acquireWithin} before it gives up its start.
 */
public class WorkerIdLease {

	private static final Logger log = LoggerFactory.getLogger(WorkerIdLease.class);

	private static final String KEY = "perflab:shortener:worker:";

	private static final RedisScript<Long> RENEW = RedisScript.of(
			"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end",
			Long.class);

	private static final RedisScript<Long> RELEASE = RedisScript.of(
			"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
			Long.class);

	private final StringRedisTemplate redis;

	private final Duration ttl;

	private final String owner = UUID.randomUUID().toString();

	private final int workerId;

	/** Until when (System.nanoTime) the lease is certainly still ours: set before the renewal is sent. */
	private final AtomicLong validUntilNanos = new AtomicLong();

	public WorkerIdLease(StringRedisTemplate redis, Duration ttl) {
		this(redis, ttl, Duration.ZERO);
	}

	public WorkerIdLease(StringRedisTemplate redis, Duration ttl, Duration acquireWithin) {
		this.redis = redis;
		this.ttl = ttl;
		this.workerId = acquireWithin.isPositive() ? retrying(acquireWithin).invoke(this::acquire) : acquire();
	}

	/** Retries while Redis cannot be reached or does not answer, with a growing pause, for {@code within} at most. */
	private static RetryTemplate retrying(Duration within) {
		RetryTemplate retry = new RetryTemplate(RetryPolicy.builder()
			.includes(RedisConnectionFailureException.class, QueryTimeoutException.class)
			.maxRetries(Long.MAX_VALUE)
			.timeout(within)
			.delay(Duration.ofMillis(250))
			.multiplier(2)
			.maxDelay(Duration.ofSeconds(4))
			.build());
		retry.setRetryListener(new RetryListener() {
			@Override
			public void onRetryFailure(RetryPolicy policy, Retryable<?> retryable, Throwable failure) {
				log.warn("Redis did not answer the Snowflake worker id lease yet ({}); asking again", failure.getMessage());
			}
		});
		return retry;
	}

	private int acquire() {
		int start = (int) (Math.abs(owner.hashCode()) % (Snowflake.MAX_WORKER + 1));
		for (int i = 0; i <= Snowflake.MAX_WORKER; i++) {
			int candidate = (start + i) % (Snowflake.MAX_WORKER + 1);
			long sentAt = System.nanoTime();
			if (Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(KEY + candidate, owner, ttl))) {
				validUntilNanos.set(sentAt + ttl.toNanos());
				log.info("leased Snowflake worker id {}", candidate);
				return candidate;
			}
		}
		throw new IllegalStateException("all " + (Snowflake.MAX_WORKER + 1) + " Snowflake worker ids are leased");
	}

	public int workerId() {
		return workerId;
	}

	/** Called on a schedule well inside the TTL. */
	public void renew() {
		long sentAt = System.nanoTime();
		Long renewed = redis.execute(RENEW, java.util.List.of(KEY + workerId), owner, String.valueOf(ttl.toMillis()));
		if (renewed != null && renewed == 1L) {
			validUntilNanos.set(sentAt + ttl.toNanos());
			return;
		}
		// the key is gone (it expired while Redis was unreachable, or Redis came back empty): take the same id back if
		// nobody else holds it. Safe: this replica made no id since its lease could have lapsed (ensureHeld), and ids
		// of whoever held it meanwhile carry earlier timestamps
		if (Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(KEY + workerId, owner, ttl))) {
			validUntilNanos.set(sentAt + ttl.toNanos());
			log.warn("leased Snowflake worker id {} again after its lease lapsed", workerId);
			return;
		}
		log.error("Snowflake worker id {} is leased by another replica; refusing new ids until restart", workerId);
		validUntilNanos.set(0);
	}

	void ensureHeld() {
		if (System.nanoTime() - validUntilNanos.get() >= 0) {
			ProblemException refused = new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, "worker-lease-lost",
					"This replica does not hold its Snowflake worker id lease; retry on another replica");
			refused.getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
			throw refused;
		}
	}

	public void release() {
		redis.execute(RELEASE, java.util.List.of(KEY + workerId), owner);
	}
}
