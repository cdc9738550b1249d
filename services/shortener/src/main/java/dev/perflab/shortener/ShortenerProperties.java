package dev.perflab.shortener;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.perflab.platform.LabSwitches;

/**
 * @param idStrategy the lab switch: {@code snowflake} (fixed) or {@code mongo-sequence} (seed 004's baseline)
 * @param publicBaseUrl where short links are served (the gateway)
 * @param codeKey the secret that turns ids into codes nobody can enumerate (base64 of 16, 24 or 32 random bytes;
 * {@code PERFLAB_SHORTENER_CODEKEY}). No default: the local profile has a dev key, anywhere else it must be given,
 * and the service does not start without it
 * @param cache Redis cache-aside of redirects
 * @param edge how long the gateway may answer a redirect without asking again, and how long a delete waits for
 * every gateway to drop it
 * @param hits batching of hit counts
 * @param worker the lease of this replica's Snowflake worker id: its time to live, how often it is renewed, how far the
 * clock may step back before ids are refused, and how long a start waits for Redis to grant it
 */
@ConfigurationProperties("perflab.shortener")
public record ShortenerProperties(@DefaultValue("snowflake") IdStrategy idStrategy,
		@DefaultValue("http://127.0.0.1:8080") String publicBaseUrl, String codeKey, @DefaultValue Cache cache,
		@DefaultValue Edge edge, @DefaultValue Hits hits, @DefaultValue Worker worker) implements LabSwitches {

	@Override
	public Map<String, ?> labSwitches() {
		return Map.of("id-strategy", idStrategy);
	}

	/** Every setting but the code key, which a log line or an actuator dump must never show. */
	@Override
	public String toString() {
		return "ShortenerProperties[idStrategy=" + idStrategy + ", publicBaseUrl=" + publicBaseUrl + ", codeKey="
				+ (codeKey == null ? "(none)" : "(set)") + ", cache=" + cache + ", edge=" + edge + ", hits=" + hits
				+ ", worker=" + worker + "]";
	}

	public enum IdStrategy {

		SNOWFLAKE, MONGO_SEQUENCE

	}

	public record Cache(@DefaultValue("10m") Duration ttl, @DefaultValue("30s") Duration negativeTtl) {
	}

	public record Edge(@DefaultValue("30s") Duration maxAge, @DefaultValue("2s") Duration ackTimeout) {
	}

	public record Hits(@DefaultValue("1s") Duration flushInterval) {
	}

	public record Worker(@DefaultValue("30s") Duration leaseTtl, @DefaultValue("10s") Duration renewEvery,
			@DefaultValue("50ms") Duration maxClockRollback, @DefaultValue("60s") Duration acquireWithin) {
	}
}
