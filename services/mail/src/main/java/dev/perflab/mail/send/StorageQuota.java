package dev.perflab.mail.send;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.perflab.mail.MailProperties;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.QuotaWindow;

/**
 * EML bytes per office and UTC day ({@code perflab.mail.quota.stored-per-office}), counted in {@code storage_quota}
 * the way {@link RecipientQuota} counts recipients: {@link #charge} inside the send's own transaction, after the
 * recipient counts, so concurrent sends of an office on any replica queue on its row and none passes the limit, and a
 * refusal rolls back with the mail. The recipient quota alone let an office fill the shared EML volume with ~1 MB mails.
 */
@Component
class StorageQuota {

	static final String SCOPE = "storage";

	private final JdbcClient jdbc;

	private final long limit;

	private final Duration retention;

	private final Clock clock;

	private final Counter refusals;

	StorageQuota(JdbcClient jdbc, MailProperties properties, Clock clock, MeterRegistry meters) {
		this.jdbc = jdbc;
		this.limit = properties.quota().storedPerOffice().toBytes();
		this.retention = properties.quota().retention();
		this.clock = clock;
		this.refusals = Counter.builder("perflab.mail.quota.refusals").tag("scope", SCOPE).register(meters);
	}

	/**
	 * Before the EML is written: 413 when even {@code atLeast} bytes pass a whole day's quota, 429 when the committed
	 * count leaves no room for them (no lock taken, nothing written).
	 */
	void precheck(long office, long atLeast) {
		if (limit == 0) {
			return;
		}
		requireFits(atLeast);
		LocalDate day = day(clock.instant());
		long used = jdbc.sql("SELECT bytes FROM storage_quota WHERE day = ? AND office_no = ?")
			.params(day, office)
			.query(Long.class)
			.optional()
			.orElse(0L);
		if (used + atLeast > limit) {
			throw refused(clock.instant());
		}
	}

	/**
	 * Adds the EML's size to the office's count of the day and refuses the send when it is then over the limit. Call
	 * inside the send's transaction, after the recipient quota's charge (the same lock order in every send).
	 */
	void charge(long office, long bytes) {
		if (limit == 0) {
			return;
		}
		requireFits(bytes);
		Instant now = clock.instant();
		LocalDate day = day(now);
		jdbc.sql("INSERT INTO storage_quota (day, office_no, bytes) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE bytes = bytes + ?")
			.params(day, office, bytes, bytes)
			.update();
		// this transaction's own version of the row it just wrote: the latest count plus this mail, under its lock
		long used = jdbc.sql("SELECT bytes FROM storage_quota WHERE day = ? AND office_no = ?")
			.params(day, office)
			.query(Long.class)
			.single();
		if (used > limit) {
			throw refused(now);
		}
	}

	/** Deletes the counters of days that ended more than {@code retention} ago. */
	void purge() {
		// a day ends at the start of the next: every day before the one retention ago has ended longer ago than that
		LocalDate before = day(clock.instant().minus(retention));
		int deleted;
		do {
			deleted = jdbc.sql("DELETE FROM storage_quota WHERE day < ? LIMIT 1000").param(before).update();
		}
		while (deleted == 1000);
	}

	/** A mail larger than a whole day's quota is refused in every day: 413, not a 429 to retry. */
	private void requireFits(long bytes) {
		if (bytes > limit) {
			refusals.increment();
			ProblemException tooLarge = new ProblemException(HttpStatus.CONTENT_TOO_LARGE, "mail-too-large",
					"A mail of " + bytes + " bytes passes the office's storage quota of " + limit + " bytes per day");
			tooLarge.getBody().setProperty("scope", SCOPE);
			tooLarge.getBody().setProperty("limit", limit);
			throw tooLarge;
		}
	}

	/** A 429 with the seconds until the UTC day ends; it names the quota and its size, never what others sent. */
	private ProblemException refused(Instant now) {
		refusals.increment();
		return QuotaWindow.DAY.refused("storage-quota", "This mail would pass the office's storage quota of " + limit
				+ " bytes of mail per day; it frees at midnight (UTC)", now, SCOPE, limit);
	}

	private static LocalDate day(Instant instant) {
		return QuotaWindow.day(instant);
	}
}
