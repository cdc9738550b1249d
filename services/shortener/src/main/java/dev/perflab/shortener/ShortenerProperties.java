package dev.perflab.shortener;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

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
 * @param quota links and bytes a user and an office may create per UTC day
 */
@ConfigurationProperties("perflab.shortener")
public record ShortenerProperties(@DefaultValue("snowflake") IdStrategy idStrategy,
		@DefaultValue("http://127.0.0.1:8080") String publicBaseUrl, String codeKey, @DefaultValue Cache cache,
		@DefaultValue Edge edge, @DefaultValue Hits hits, @DefaultValue Worker worker,
		@DefaultValue Quota quota) implements LabSwitches {

	@Override
	public Map<String, ?> labSwitches() {
		return Map.of("id-strategy", idStrategy);
	}

	/** Every setting but the code key, which a log line or an actuator dump must never show. */
	@Override
	public String toString() {
		return "ShortenerProperties[idStrategy=" + idStrategy + ", publicBaseUrl=" + publicBaseUrl + ", codeKey="
				+ (codeKey == null ? "(none)" : "(set)") + ", cache=" + cache + ", edge=" + edge + ", hits=" + hits
				+ ", worker=" + worker + ", quota=" + quota + "]";
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

	/**
	 * Links a user and an office may create per UTC day, counted in links and in bytes stored (the UTF-8 bytes of
	 * the URL, owner and office plus {@code LinkQuota.OVERHEAD}, 256, for the rest of the document and its index entries,
	 * as measured); 0 turns a limit off.
	 * Without them one caller at 200 creates/s of 2 KB URLs wrote ~38 GB a day into the chart's 8 Gi MongoDB volume.
	 * Per user: 500 links is one every minute of an 8-hour day; 512 KB is those 500 at a typical ~100-character URL
	 * (~190 KB) with room to spare, and ~220 of the longest URLs (2,048 characters). Per office: 10,000 links, 20 users
	 * at their limit; 8 MB is those at a typical URL (~3.8 MB) with room to spare. At 8 MB a day one office needs
	 * 8 Gi / 8 MB = 1,024 days to fill the chart's volume alone, ten offices over three months.
	 *
	 * @param linksPerUser links per user (a login of an office) per UTC day
	 * @param linksPerOffice links per office per UTC day
	 * @param bytesPerUser bytes stored per user per UTC day
	 * @param bytesPerOffice bytes stored per office per UTC day
	 * @param retention how long a day's counters are kept after it (for an operator) before they are deleted
	 */
	public record Quota(@DefaultValue("500") long linksPerUser, @DefaultValue("10000") long linksPerOffice,
			@DefaultValue("512KB") DataSize bytesPerUser, @DefaultValue("8MB") DataSize bytesPerOffice,
			@DefaultValue("1d") Duration retention) {

		public Quota {
			if (linksPerUser < 0 || linksPerOffice < 0) {
				throw new IllegalArgumentException("perflab.shortener.quota links are links per day, 0 for none");
			}
			if (bytesPerUser.isNegative() || bytesPerOffice.isNegative()) {
				throw new IllegalArgumentException("perflab.shortener.quota bytes are bytes per day, 0 for none");
			}
		}
	}
}
