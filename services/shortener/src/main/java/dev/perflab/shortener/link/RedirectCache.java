package dev.perflab.shortener.link;

import java.time.Duration;
import java.time.Instant;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

import dev.perflab.shortener.ShortenerProperties;

/**
 * Cache-aside of redirects in Redis, shared by all replicas. Unknown codes are cached too (negative caching), so
 * a scan of random codes does not become a scan of MongoDB. An entry never outlives its link's expiry.
 */
@Component
class RedirectCache {

	static final String KEY = "perflab:shortener:link:";

	private static final String MISSING = "-";

	private final StringRedisTemplate redis;

	private final ShortenerProperties.Cache settings;

	RedirectCache(StringRedisTemplate redis, ShortenerProperties properties) {
		this.redis = redis;
		this.settings = properties.cache();
	}

	/** Target of a cached code; {@link Target#MISSING} for a cached miss; null when not cached. */
	Target get(String code) {
		String value = redis.opsForValue().get(KEY + code);
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
		redis.opsForValue().set(KEY + code, value, ttl);
	}

	void putMissing(String code) {
		redis.opsForValue().set(KEY + code, MISSING, settings.negativeTtl());
	}

	record Target(String url, boolean permanent, Instant expiresAt) {

		static final Target MISSING = new Target(null, false, null);

		static Target of(Link link) {
			return new Target(link.url(), link.permanent(), link.expiresAt());
		}
	}
}
