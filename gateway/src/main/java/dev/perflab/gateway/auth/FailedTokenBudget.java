package dev.perflab.gateway.auth;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import org.jspecify.annotations.Nullable;

import dev.perflab.gateway.GatewayProperties;

/**
 * Refused bearer tokens per client address, in this instance (Bucket4j buckets in a bounded Caffeine cache): each
 * 401 for a presented token spends one; an address that has spent its budget is refused before its next token is
 * parsed or verified, until the bucket refills. Verifying costs an RSA check and, for an unknown {@code kid}, may
 * cost a JWKS fetch: a client cannot make the gateway do that work without limit. Only refusals are counted, so
 * callers with valid tokens never spend it.
 */
final class FailedTokenBudget {

	private final GatewayProperties.RateLimit.FailedTokens limits;

	private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
		.maximumSize(100_000)
		.expireAfterAccess(Duration.ofMinutes(1))
		.build();

	FailedTokenBudget(GatewayProperties.RateLimit.FailedTokens limits) {
		this.limits = limits;
	}

	/** How long until this address may present a token again; null: it may now. */
	@Nullable Duration refusal(String address) {
		Bucket bucket = buckets.getIfPresent(address);
		long wait = bucket == null ? 0 : bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill();
		return wait == 0 ? null : Duration.ofNanos(wait);
	}

	void charge(String address) {
		buckets.get(address, a -> bucket()).tryConsume(1);
	}

	private Bucket bucket() {
		double rate = limits.replenishRate();
		long capacity = Math.max(1, limits.burstCapacity());
		Bandwidth limit = rate >= 1
				? Bandwidth.builder().capacity(capacity).refillGreedy(Math.round(rate), Duration.ofSeconds(1)).build()
				: Bandwidth.builder().capacity(capacity).refillGreedy(1, Duration.ofNanos((long) (1e9 / rate))).build();
		return Bucket.builder().addLimit(limit).build();
	}
}
