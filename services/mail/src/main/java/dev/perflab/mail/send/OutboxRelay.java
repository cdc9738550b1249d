package dev.perflab.mail.send;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.mail.MailProperties;
import dev.perflab.mail.send.SentMails.OutboxJob;
import dev.perflab.platform.work.ClaimLoop;

/**
 * Drains the outbox into the send service. Rows are claimed with {@code FOR UPDATE SKIP LOCKED} in a short
 * transaction that moves their next attempt a lease ahead, so several mail replicas relay side by side and a
 * relay killed mid-push leaves its rows to be claimed again. The push itself runs with no connection held.
 * Delivery is at least once, and send's idempotency by the row's job id (a UUID, never the mail number, which
 * repeats once this database is recreated) turns that into exactly one job per mail. A push send refuses for good
 * is dead-lettered: kept with its reason, counted, shown by {@code GET /v2/mails/{no}/handoff}, never retried.
 */
@Component
class OutboxRelay extends ClaimLoop<OutboxRelay.Row> {

	private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	private final SendClient send;

	private final JsonMapper json;

	private final MailProperties.Relay settings;

	private final RecipientQuota quota;

	private final StorageQuota storage;

	private final UnsavedEmls emls;

	private final AtomicLong backlog = new AtomicLong();

	private final AtomicLong deadRows = new AtomicLong();

	private final Counter pushed;

	private final Counter retried;

	private final Counter dead;

	OutboxRelay(JdbcClient jdbc, TransactionTemplate tx, SendClient send, JsonMapper json, MailProperties properties,
			RecipientQuota quota, StorageQuota storage, UnsavedEmls emls, MeterRegistry meters) {
		super("outbox", properties.relay().concurrency(), properties.relay().batchSize(),
				properties.relay().pollInterval());
		this.jdbc = jdbc;
		this.tx = tx;
		this.send = send;
		this.json = json;
		this.settings = properties.relay();
		this.quota = quota;
		this.storage = storage;
		this.emls = emls;
		this.pushed = Counter.builder("perflab.mail.outbox.pushes").tag("result", "sent").register(meters);
		this.retried = Counter.builder("perflab.mail.outbox.pushes").tag("result", "retry").register(meters);
		this.dead = Counter.builder("perflab.mail.outbox.pushes").tag("result", "dead").register(meters);
		meters.gauge("perflab.mail.outbox.backlog", backlog);
		// hand-offs send refused for good: each one is a mail that will not be delivered until an operator acts
		meters.gauge("perflab.mail.outbox.dead", deadRows);
	}

	/**
	 * Seed 000's synchronous call, for the {@code nested-requires-new} switch only: pushes one row from inside the
	 * caller's transaction (on its connection). Failures are swallowed, as in the seed; the row stays for the relay.
	 */
	void pushNow(long outboxId) {
		Row row = jdbc.sql("SELECT id, job_id, payload, attempts FROM outbox WHERE id = ?").param(outboxId)
			.query((rs, i) -> new Row(rs.getLong("id"), rs.getString("job_id"), rs.getString("payload"), rs.getInt("attempts")))
			.single();
		try {
			push(row);
		}
		catch (Exception e) {
			log.warn("outbox {}: synchronous push failed, left to the relay: {}", outboxId, e.toString());
		}
	}

	/**
	 * Pushes one row and marks it sent when send took it (send answers 200/201 only once the job and its EML are
	 * committed on its side), queuing an unsaved mail's EML for deletion in the same transaction. A row another relay
	 * already marked (this one's lease ran out while it pushed) is left as it is. @return the status send answered
	 */
	private int push(Row row) throws IOException, InterruptedException {
		int status = send.push(row.id(), row.jobId(), json.readValue(row.payload(), OutboxJob.class));
		if (status == 200 || status == 201) {
			tx.executeWithoutResult(marking -> {
				if (jdbc.sql("UPDATE outbox SET sent_at = ?, last_error = NULL WHERE id = ? AND sent_at IS NULL")
					.params(now(), row.id())
					.update() == 1) {
					emls.queue(row.id());
				}
			});
			pushed.increment();
		}
		return status;
	}

	@Override
	public boolean isAutoStartup() {
		return settings.enabled();
	}

	@Override
	protected void housekeeping() {
		backlog.set(jdbc.sql("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND dead_at IS NULL")
			.query(Long.class).single());
		deadRows.set(jdbc.sql("SELECT COUNT(*) FROM outbox WHERE dead_at IS NOT NULL").query(Long.class).single());
		// a release not done within a lease of its push was left by a relay that died or failed: done here
		emls.releaseQueued(Instant.now().minus(settings.lease()), settings.batchSize());
	}

	/**
	 * Rows send acknowledged more than {@code retention} ago, in small batches (no long lock on the table); and the
	 * quotas' counters of past hours and days (mail's one periodic task; a deployment that sends runs a relay).
	 */
	@Override
	protected void purge() {
		Timestamp before = Timestamp.from(Instant.now().minus(settings.retention()));
		int deleted;
		do {
			deleted = jdbc.sql("DELETE FROM outbox WHERE sent_at < ? LIMIT 1000").param(before).update();
		}
		while (deleted == 1000 && !stopping());
		quota.purge();
		storage.purge();
	}

	@Override
	protected List<Row> claim(int limit) {
		Timestamp now = now();
		return tx.execute(status -> {
			List<Row> rows = jdbc.sql("""
					SELECT id, job_id, payload, attempts FROM outbox
					WHERE sent_at IS NULL AND dead_at IS NULL AND next_attempt_at <= ?
					ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED""")
				.params(now, limit)
				.query((rs, i) -> new Row(rs.getLong("id"), rs.getString("job_id"), rs.getString("payload"),
						rs.getInt("attempts") + 1))
				.list();
			if (!rows.isEmpty()) {
				jdbc.sql("UPDATE outbox SET attempts = attempts + 1, next_attempt_at = :leaseEnd WHERE id IN (:ids)")
					.param("leaseEnd", Timestamp.from(now.toInstant().plus(settings.lease())))
					.param("ids", rows.stream().map(Row::id).toList())
					.update();
			}
			return rows;
		});
	}

	@Override
	protected void process(Row row) {
		String error;
		int status = 0;
		try {
			status = push(row);
			if (status == 200 || status == 201) {
				emls.releaseAfterPush(row.id());
				return;
			}
			error = "send answered " + status;
		}
		catch (NoSuchFileException e) {
			status = 410;
			error = "EML file missing: " + e.getMessage();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return; // shutting down: the lease runs out and the row is claimed again
		}
		catch (Exception e) {
			error = e.getClass().getSimpleName() + ": " + e.getMessage();
		}
		try {
			settle(row, status, error);
		}
		catch (RuntimeException e) {
			log.warn("outbox {}: could not record the failed push ({}); the lease runs out and it is retried", row.id(), e.toString());
		}
	}

	private void settle(Row row, int status, String error) {
		String trimmed = error.length() > 500 ? error.substring(0, 500) : error;
		boolean permanent = status >= 400 && status < 500 && status != 408 && status != 429;
		if (permanent) {
			// a job send refuses as malformed will never pass: keep it visible instead of retrying forever
			// a row another relay got sent meanwhile (its EML then deleted: 410 here) stays sent
			if (jdbc.sql("UPDATE outbox SET dead_at = ?, last_error = ? WHERE id = ? AND sent_at IS NULL")
				.params(now(), trimmed, row.id())
				.update() == 1) {
				dead.increment();
				log.error("outbox {}: dead, not retried: {}", row.id(), trimmed);
			}
			return;
		}
		Timestamp next = Timestamp.from(Instant.now().plus(settings.backoffAfter(row.attempt())));
		jdbc.sql("UPDATE outbox SET next_attempt_at = ?, last_error = ? WHERE id = ? AND sent_at IS NULL")
			.params(next, trimmed, row.id())
			.update();
		retried.increment();
		if (row.attempt() == 1 || row.attempt() % 10 == 0) {
			log.warn("outbox {}: push attempt {} failed, retrying: {}", row.id(), row.attempt(), trimmed);
		}
	}

	private static Timestamp now() {
		return Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
	}

	/** @param attempt this claim's attempt number */
	record Row(long id, String jobId, String payload, int attempt) {
	}
}
