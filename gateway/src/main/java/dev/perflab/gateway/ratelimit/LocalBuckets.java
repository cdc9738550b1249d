package dev.perflab.gateway.ratelimit;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;

/**
 * In-process token buckets (Bucket4j), one per route and key, held in a bounded Caffeine cache: what limits callers
 * while Redis is unreachable. Each instance gets {@code 1/replicas} of the rate and the burst, so the replicas
 * together allow about what the shared Redis bucket would.
 */
final class LocalBuckets {

	record Decision(boolean allowed, long remaining) {
	}

	private final int replicas;

	private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
		.maximumSize(100_000)
		.expireAfterAccess(Duration.ofMinutes(2))
		.build();

	LocalBuckets(int replicas) {
		this.replicas = Math.max(1, replicas);
	}

	int replicas() {
		return replicas;
	}

	Decision take(String routeId, String key, double replenishRate, long burstCapacity, int requested) {
		Bucket bucket = buckets.get(routeId + '\u0000' + key, k -> bucket(replenishRate, burstCapacity));
		ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(requested);
		return new Decision(probe.isConsumed(), probe.getRemainingTokens());
	}

	private Bucket bucket(double replenishRate, long burstCapacity) {
		double rate = replenishRate / replicas;
		long capacity = Math.max(1, burstCapacity / replicas);
		// whole tokens per second where the share allows it; otherwise one token every 1/rate seconds
		Bandwidth limit = rate >= 1
				? Bandwidth.builder().capacity(capacity).refillGreedy(Math.round(rate), Duration.ofSeconds(1)).build()
				: Bandwidth.builder().capacity(capacity).refillGreedy(1, Duration.ofNanos((long) (1e9 / rate))).build();
		return Bucket.builder().addLimit(limit).build();
	}
}
