package dev.perflab.mail;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.perflab.platform.LabSwitches;
import dev.perflab.platform.work.ClaimLoop;

/**
 * @param listCount lab switch: {@code not-exists} (fixed) or {@code left-join} (seed 000's count)
 * @param emlRead lab switch: {@code streaming} (fixed) or {@code in-memory} (seed 000's parser)
 * @param storage the folder of the EML files (a volume in Kubernetes)
 * @param storageReserve bytes the EML volume keeps free: while it has no more usable bytes than this, a send is refused
 *        (507) and reads go on; 0 refuses only once it is full. The offices' storage quotas together can pass the one
 *        volume they share. 512 MB holds ~360 of the largest EMLs a send can write (~1.4 MB), more than all 200
 *        request threads writing one at once
 * @param maxPageSize the largest {@code size} of a mail list page
 * @param maxBodyChars text or HTML body characters returned by a mail read (longer bodies are cut and flagged)
 * @param sendHandoff lab switch: {@code outbox} (fixed) or {@code nested-requires-new} (seed 000's hand-off)
 * @param relay the outbox relay that hands accepted sends to the send service
 * @param quota recipients a user and an office may send per hour, EML bytes an office may write per day
 */
@ConfigurationProperties("perflab.mail")
public record MailProperties(@DefaultValue("not-exists") ListCount listCount, @DefaultValue("streaming") EmlRead emlRead,
		@DefaultValue(".run/mail-storage") Path storage, @DefaultValue("512MB") DataSize storageReserve,
		@DefaultValue("100") int maxPageSize, @DefaultValue("1000000") int maxBodyChars,
		@DefaultValue("outbox") SendHandoff sendHandoff, @DefaultValue Relay relay, @DefaultValue Quota quota)
		implements LabSwitches {

	public MailProperties {
		if (storageReserve.isNegative()) {
			throw new IllegalArgumentException(
					"perflab.mail.storage-reserve is bytes, 0 to refuse mail only once the volume is full");
		}
	}

	@Override
	public Map<String, ?> labSwitches() {
		return Map.of("list-count", listCount, "eml-read", emlRead, "send-handoff", sendHandoff);
	}


	public enum ListCount {

		NOT_EXISTS, LEFT_JOIN

	}

	public enum EmlRead {

		STREAMING, IN_MEMORY

	}

	public enum SendHandoff {

		OUTBOX, NESTED_REQUIRES_NEW

	}

	/**
	 * @param enabled whether this instance relays (a seeding run or a read-only replica does not)
	 * @param sendUrl base URL of the send service
	 * @param concurrency jobs pushed at once per instance
	 * @param batchSize outbox rows claimed per round
	 * @param pollInterval how often an idle relay looks for rows (a committed send also wakes it at once)
	 * @param lease how long a claimed row stays with one relay; a relay that dies loses it after this
	 * @param backoff first retry delay after send refused or could not be reached, doubled per attempt
	 * @param maxBackoff the longest retry delay
	 * @param connectTimeout connect timeout to send
	 * @param timeout the whole push, answer included
	 * @param retention how long a pushed row is kept (for an operator) before it is deleted
	 */
	public record Relay(@DefaultValue("true") boolean enabled, @DefaultValue("http://127.0.0.1:8082") String sendUrl,
			@DefaultValue("8") int concurrency, @DefaultValue("64") int batchSize, @DefaultValue("200ms") Duration pollInterval,
			@DefaultValue("30s") Duration lease, @DefaultValue("500ms") Duration backoff,
			@DefaultValue("30s") Duration maxBackoff, @DefaultValue("1s") Duration connectTimeout,
			@DefaultValue("10s") Duration timeout, @DefaultValue("1d") Duration retention) {

		public Duration backoffAfter(int attempts) {
			return ClaimLoop.backoff(backoff, maxBackoff, attempts);
		}
	}

	/**
	 * Recipients (to, cc and bcc; each address once per mail) a user and an office may hand to the relay per clock
	 * hour (UTC); 0 turns a limit off. Once one password of an office leaks, its mail system sends spam as fast as the
	 * relay takes it. Per user: far above what a person addresses by hand, and still room for six mails of the most
	 * recipients a mail may have (300); it stops one compromised account within the hour. Per office: 25 users at their
	 * limit; it stops many accounts at once before the relay is blocklisted for every other office too.
	 * <p>
	 * EML bytes an office may write per UTC day, every send counted (an unsaved one's file stays until send holds its
	 * copy, longer while send is down): the recipient counts let an office write a file of up to ~1.4 MB per recipient,
	 * 70 GB an hour, into the one volume every office shares. 10 GB is ~7,000 of the largest EMLs a send can write, or
	 * over 30 million of the load tests' ~300-byte mails; 0 turns it off.
	 *
	 * @param perUser recipients per user per hour
	 * @param perOffice recipients per office per hour
	 * @param retention how long a window's counters are kept after it (for an operator) before they are deleted
	 * @param storedPerOffice EML bytes per office per UTC day
	 */
	public record Quota(@DefaultValue("2000") int perUser, @DefaultValue("50000") int perOffice,
			@DefaultValue("1d") Duration retention, @DefaultValue("10GB") DataSize storedPerOffice) {

		public Quota {
			if (perUser < 0 || perOffice < 0) {
				throw new IllegalArgumentException("perflab.mail.quota limits are recipients per hour, 0 for none");
			}
			if (storedPerOffice.isNegative()) {
				throw new IllegalArgumentException("perflab.mail.quota.stored-per-office is bytes per day, 0 for none");
			}
		}
	}
}
