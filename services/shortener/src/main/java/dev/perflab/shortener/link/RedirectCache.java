package dev.perflab.shortener.link;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

import dev.perflab.shortener.ShortenerProperties;

/**
 * Cache-aside of redirects in Redis, shared by all replicas. Unknown codes are cached too (negative caching), so
 * a scan of random codes does not become a scan of MongoDB. An entry never outlives its link's expiry. With Redis
 * down the cache misses (redirects read MongoDB) instead of failing them; a delete, which must evict, still needs it.
 */
@Component
class RedirectCache {

	static final String KEY = "perflab:shortener:link:";

	private static final String MISSING = "-";

	private static final Logger log = LoggerFactory.getLogger(RedirectCache.class);

	private final StringRedisTemplate redis;

	private final ShortenerProperties.Cache settings;

	private final Counter unavailable;

	private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - 20_000_000_000L);

	RedirectCache(StringRedisTemplate redis, ShortenerProperties properties, MeterRegistry meters) {
		this.redis = redis;
		this.settings = properties.cache();
		this.unavailable = Counter.builder("perflab.shortener.cache.unavailable")
			.description("redirect cache reads and writes that failed because Redis was unavailable (served from MongoDB)")
			.register(meters);
	}

	/** Target of a cached code; {@link Target#MISSING} for a cached miss; null when not cached or Redis is down. */
	Target get(String code) {
		String value;
		try {
			value = redis.opsForValue().get(KEY + code);
		}
		catch (DataAccessException e) {
			unavailable(e);
			return null;
		}
		if (value == null) {
			return null;
		}
		if (value.equals(MISSING)) {
			return Target.MISSING;
		}
		int first = value.indexOf('|');
		int second = value.indexOf('|', first + 1);
		long expires = Long.parseLong(value, first + 1, second, 10);
		return new Target(value.substring(second + 1), value.charAt(0) == 'P',
				expires == 0 ? null : Instant.ofEpochMilli(expires));
	}

	void put(String code, Target target, Instant now) {
		Duration ttl = settings.ttl();
		if (target.expiresAt() != null) {
			Duration left = Duration.between(now, target.expiresAt());
			if (left.compareTo(ttl) < 0) {
				ttl = left;
			}
		}
		if (ttl.toMillis() <= 0) {
			return;
		}
		String value = (target.permanent() ? "P|" : "T|")
				+ (target.expiresAt() == null ? 0 : target.expiresAt().toEpochMilli()) + "|" + target.url();
		set(KEY + code, value, ttl);
	}

	void putMissing(String code) {
		set(KEY + code, MISSING, settings.negativeTtl());
	}

	/** A cache that cannot be written is a cache that misses: the redirect was read from MongoDB and stands. */
	private void set(String key, String value, Duration ttl) {
		try {
			redis.opsForValue().set(key, value, ttl);
		}
		catch (DataAccessException e) {
			unavailable(e);
		}
	}

	/** Redis down: redirects read MongoDB (counted, and said at most every 10 s). */
	private void unavailable(DataAccessException e) {
		unavailable.increment();
		long now = System.nanoTime();
		long last = lastWarning.get();
		if (now - last > 10_000_000_000L && lastWarning.compareAndSet(last, now)) {
			log.warn("redirect cache unavailable, reading MongoDB: {}", e.toString());
		}
	}

	record Target(String url, boolean permanent, Instant expiresAt) {

		static final Target MISSING = new Target(null, false, null);

		static Target of(Link link) {
			return new Target(link.url(), link.permanent(), link.expiresAt());
		}
	}
}
