package dev.perflab.gateway.ratelimit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Tokens a gateway instance took from a caller's Redis bucket ahead of need, spent here without asking Redis again:
 * one Redis round trip then allows up to {@code size} requests instead of one. Redis still holds the only bucket, so
 * the replicas together never allow more than it grants; what a lease costs is precision at the edge of the limit
 * (tokens one instance holds are not available to another for up to {@code life}), which is why a lease is at most
 * 1/20 of the burst and shrinks to single tokens as the bucket runs low.
 */
final class Leases {

	/** What is left of one lease: {@code tokens} to spend, {@code redisRemaining} what Redis had left after it. */
	static final class Lease {

		private final AtomicLong tokens;

		private volatile long redisRemaining;

		Lease(long tokens, long redisRemaining) {
			this.tokens = new AtomicLong(tokens);
			this.redisRemaining = redisRemaining;
		}

		/** Spends {@code requested} tokens; the remaining count the caller sees, or -1 when the lease is spent. */
		long take(int requested) {
			long left = tokens.addAndGet(-requested);
			return left < 0 ? -1 : redisRemaining + left;
		}

		/** Adds tokens of a later grant (a spent lease counts as empty, not as owing). */
		Lease add(long more, long remaining) {
			tokens.updateAndGet(t -> Math.max(0, t) + more);
			redisRemaining = remaining;
			return this;
		}
	}

	private final int size;

	private final Cache<String, Lease> held;

	Leases(int size, Duration life) {
		this.size = Math.max(1, size);
		this.held = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(life).build();
	}

	boolean enabled() {
		return size > 1;
	}

	Lease current(String key) {
		return held.getIfPresent(key);
	}

	/**
	 * Tokens to ask Redis for: {@code requested} times the lease size, at most 1/20 of the burst, and no more than
	 * Redis had left at the last answer (near the limit every request asks for its own tokens, as without leases).
	 */
	long ask(Lease last, int requested, long burstCapacity) {
		long count = Math.min(size, burstCapacity / (20L * requested));
		if (last != null) {
			count = Math.min(count, last.redisRemaining / requested);
		}
		return Math.max(1, count) * requested;
	}

	/**
	 * Records Redis's answer to a request of {@code asked} tokens of which {@code requested} were spent at once.
	 * Requests that missed a lease together each got one; what is left of them is added up, not overwritten.
	 */
	void granted(String key, long asked, int requested, long redisRemaining) {
		held.asMap().merge(key, new Lease(asked - requested, redisRemaining),
				(old, fresh) -> old.add(asked - requested, redisRemaining));
	}

	/** Records a refusal, so the next request of the key asks for no more than Redis has. */
	void refused(String key, long redisRemaining) {
		held.asMap().merge(key, new Lease(0, redisRemaining), (old, fresh) -> old.add(0, redisRemaining));
	}
}
