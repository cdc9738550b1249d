package dev.perflab.mail.send;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.mail.eml.EmlStore;

/**
 * The EML of a send its sender did not save ({@code is_save: false}): kept until send holds its own copy, then deleted.
 * Every send writes one of up to ~1.4 MB, and unsaved ones were kept forever though nothing can read them. Send
 * commits a job with its EML before it answers 200/201, and only that answer marks the outbox row sent; the same
 * transaction queues the file in {@code eml_release} ({@link #queue}). The file is deleted first and the queue row
 * last, so a crash between them leaves the row, and deleting it again is a no-op: each step is safe to repeat, and the
 * relay's loop repeats what a crash or an error left ({@link #releaseQueued}). A hand-off send refused (dead-lettered)
 * keeps its EML for an operator.
 */
@Component
class UnsavedEmls {

	private static final Logger log = LoggerFactory.getLogger(UnsavedEmls.class);

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	private final EmlStore store;

	private final Counter released;

	UnsavedEmls(JdbcClient jdbc, TransactionTemplate tx, EmlStore store, MeterRegistry meters) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.store = store;
		this.released = Counter.builder("perflab.mail.eml.released")
			.description("EML files of unsaved sends deleted once send held its own copy")
			.register(meters);
	}

	/** In the transaction that marks outbox row {@code outboxId} sent: queues its mail's EML when the mail is unsaved. */
	void queue(long outboxId) {
		jdbc.sql("""
				INSERT IGNORE INTO eml_release (mail_no, eml_path, queued_at)
				SELECT m.no, m.eml_path, ? FROM outbox o JOIN mail_content m ON m.no = o.mail_no AND m.delivery_id = o.job_id
				WHERE o.id = ? AND m.del_flag = 'Y' AND m.eml_path <> ''""")
			.params(now(), outboxId)
			.update();
	}

	/** Right after the push that queued it: releases the EML of outbox row {@code outboxId}, if one is queued. */
	void releaseAfterPush(long outboxId) {
		try {
			jdbc.sql("SELECT r.mail_no, r.eml_path FROM eml_release r JOIN outbox o ON o.mail_no = r.mail_no WHERE o.id = ?")
				.param(outboxId)
				.query((rs, i) -> new Release(rs.getLong(1), rs.getString(2)))
				.optional()
				.ifPresent(this::release);
		}
		catch (RuntimeException e) {
			log.warn("outbox {}: EML release left to the next round: {}", outboxId, e.toString());
		}
	}

	/** Releases up to {@code limit} EMLs queued before {@code before}: what a crash or a failed release left. */
	int releaseQueued(Instant before, int limit) {
		List<Release> due = jdbc.sql("SELECT mail_no, eml_path FROM eml_release WHERE queued_at < ? ORDER BY queued_at LIMIT ?")
			.params(Timestamp.from(before), limit)
			.query((rs, i) -> new Release(rs.getLong(1), rs.getString(2)))
			.list();
		int done = 0;
		for (Release release : due) {
			done += release(release) ? 1 : 0;
		}
		return done;
	}

	private boolean release(Release release) {
		try {
			store.discard(release.path());
		}
		catch (Exception e) {
			// kept queued, moved to the back: one file that cannot be deleted must not hold up the others
			jdbc.sql("UPDATE eml_release SET queued_at = ? WHERE mail_no = ?").params(now(), release.mailNo()).update();
			log.warn("mail {}: EML {} not deleted, retried later: {}", release.mailNo(), release.path(), e.toString());
			return false;
		}
		tx.executeWithoutResult(status -> {
			jdbc.sql("UPDATE mail_content SET eml_path = '' WHERE no = ? AND eml_path = ?")
				.params(release.mailNo(), release.path())
				.update();
			jdbc.sql("DELETE FROM eml_release WHERE mail_no = ?").param(release.mailNo()).update();
		});
		released.increment();
		return true;
	}

	private static Timestamp now() {
		return Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
	}

	private record Release(long mailNo, String path) {
	}
}
