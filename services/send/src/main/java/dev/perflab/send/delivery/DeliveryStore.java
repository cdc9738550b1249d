package dev.perflab.send.delivery;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.send.delivery.Job.Recipient;
import dev.perflab.send.delivery.Outcome.Result;

/**
 * Every statement of the delivery loop, each in its own short transaction: a connection is never held while a
 * message is on the wire (seed 000's pool starvation came from exactly that).
 */
@Component
class DeliveryStore {

	/** what {@link #settle} answers when the job's lease ran out and the job is not this worker's any more */
	static final int LOST = -1;

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	DeliveryStore(JdbcClient jdbc, TransactionTemplate tx) {
		this.jdbc = jdbc;
		this.tx = tx;
	}

	/** Claims up to {@code limit} due jobs; SKIP LOCKED lets several instances claim side by side without waiting. */
	List<Claim> claim(int limit, Duration lease) {
		return claim(limit, lease, now());
	}

	/** @param now the claim's clock: a test claims only jobs due by a time no real job has */
	List<Claim> claim(int limit, Duration lease, Timestamp now) {
		return tx.execute(status -> {
			List<Claim> due = jdbc.sql("""
					SELECT job_id, attempts FROM delivery_job WHERE status = 'PENDING' AND next_attempt_at <= ?
					ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED""")
				.params(now, limit)
				// the UPDATE below counts this claim's attempt: its number is the claim's token
				.query((rs, i) -> new Claim(rs.getString("job_id"), rs.getInt("attempts") + 1))
				.list();
			if (!due.isEmpty()) {
				jdbc.sql("""
						UPDATE delivery_job SET status = 'SENDING', attempts = attempts + 1, lease_until = :leaseEnd
						WHERE job_id IN (:due)""")
					.param("leaseEnd", Timestamp.from(now.toInstant().plus(lease)))
					.param("due", due.stream().map(Claim::jobId).toList())
					.update();
			}
			return due;
		});
	}

	/** Jobs whose worker died (kill -9, lost node) go back to the queue once their lease has run out. */
	int requeueExpired() {
		return requeueExpired(now());
	}

	int requeueExpired(Timestamp now) {
		return jdbc.sql("""
				UPDATE delivery_job SET status = 'PENDING', next_attempt_at = ?, lease_until = NULL
				WHERE status = 'SENDING' AND lease_until < ?""")
			.params(now, now)
			.update();
	}

	/** The claimed job with its pending recipients; empty when the claim is no longer this worker's. */
	Optional<Job> load(Claim claim) {
		List<Recipient> pending = jdbc.sql("""
				SELECT email, kind, receipt_key FROM recipient WHERE job_id = ? AND status = 'PENDING' ORDER BY email""")
			.param(claim.jobId())
			.query((rs, i) -> new Recipient(rs.getString("email"), rs.getString("kind"), rs.getString("receipt_key")))
			.list();
		return jdbc.sql("""
				SELECT job_id, mail_no, office_no, sender, separate_send, eml, attempts FROM delivery_job
				WHERE job_id = ? AND status = 'SENDING' AND attempts = ?""")
			.params(claim.jobId(), claim.attempt())
			.query((rs, i) -> new Job(rs.getString("job_id"), rs.getLong("mail_no"), rs.getLong("office_no"),
					rs.getString("sender"), rs.getBoolean("separate_send"), rs.getBytes("eml"), rs.getInt("attempts"),
					pending))
			.optional();
	}

	/**
	 * Extends the job's lease to {@code lease} from now, only while this worker still holds it: the job is still
	 * {@code SENDING} under the attempt this worker claimed. A worker whose lease ran out (its job re-queued, perhaps
	 * claimed again by another worker) extends nothing and is told so.
	 *
	 * @return whether this worker still holds the job
	 */
	boolean renew(Job job, Duration lease) {
		Timestamp leaseEnd = Timestamp.from(now().toInstant().plus(lease));
		return tx.execute(status -> extend(job, leaseEnd));
	}

	private boolean extend(Job job, Timestamp leaseEnd) {
		return jdbc.sql("""
				UPDATE delivery_job SET lease_until = ? WHERE job_id = ? AND status = 'SENDING' AND attempts = ?""")
			.params(leaseEnd, job.id(), job.attempt())
			.update() == 1;
	}

	/**
	 * Records one SMTP transaction's outcome at once, so a crash right after it re-sends as little as possible, and in
	 * the same transaction renews the job's lease if this worker still holds it ({@link #renew}): a job that takes
	 * longer than one lease stays with the worker that is sending it. Only recipients still pending move: a settled
	 * recipient never changes again. The outcome is recorded even when the lease is lost: the relay took the message,
	 * and the worker now holding the job need not send it again.
	 *
	 * @return whether this worker still holds the job; when not, it must send none of its other recipients
	 */
	boolean record(Job job, List<Outcome> outcomes, Duration lease) {
		Timestamp now = now();
		return tx.execute(status -> {
			for (Outcome o : outcomes) {
				String next = switch (o.result()) {
					case DELIVERED -> "DELIVERED";
					case FAILED -> "FAILED";
					case RETRY, UNREACHABLE -> "PENDING";
				};
				jdbc.sql("""
						UPDATE recipient SET status = ?, attempts = attempts + 1, last_reply = ?, message_id = ?,
						  receipt_url = ?, delivered_at = ?
						WHERE job_id = ? AND email = ? AND status = 'PENDING'""")
					.params(next, o.reply(), o.messageId(), o.receiptUrl(), o.result() == Result.DELIVERED ? now : null,
							job.id(), o.email())
					.update();
			}
			return extend(job, Timestamp.from(now.toInstant().plus(lease)));
		});
	}

	/**
	 * Settles the job after a pass: done when no recipient is pending; otherwise due again after the backoff, or,
	 * with the attempts used up, the remaining recipients fail. Conditional on the claim token: a worker whose
	 * lease ran out (and whose job another worker took) changes nothing, neither the job nor its recipients.
	 *
	 * @return the recipients still pending (0 when the job is done), or {@link #LOST} when the job is not this
	 *         worker's any more
	 */
	int settle(Job job, int maxAttempts, Duration backoff) {
		Timestamp now = now();
		return tx.execute(status -> {
			// the job's row locked first: no renewal, requeue or claim moves it while this settles
			boolean held = jdbc.sql("""
					SELECT COUNT(*) FROM delivery_job WHERE job_id = ? AND status = 'SENDING' AND attempts = ? FOR UPDATE""")
				.params(job.id(), job.attempt())
				.query(Integer.class)
				.single() == 1;
			if (!held) {
				return LOST;
			}
			int pending = jdbc.sql("SELECT COUNT(*) FROM recipient WHERE job_id = ? AND status = 'PENDING'")
				.param(job.id())
				.query(Integer.class)
				.single();
			if (pending > 0 && job.attempt() >= maxAttempts) {
				jdbc.sql("""
						UPDATE recipient SET status = 'FAILED', last_reply = CONCAT('gave up after ', ?, ' attempts: ',
						  COALESCE(last_reply, '')) WHERE job_id = ? AND status = 'PENDING'""")
					.params(job.attempt(), job.id())
					.update();
				pending = 0;
			}
			if (pending == 0) {
				// the EML is not needed once every recipient is settled; the digest still answers a repeated push
				jdbc.sql("""
						UPDATE delivery_job SET status = 'DONE', lease_until = NULL, finished_at = ?, eml = ''
						WHERE job_id = ? AND status = 'SENDING' AND attempts = ?""")
					.params(now, job.id(), job.attempt())
					.update();
			}
			else {
				jdbc.sql("""
						UPDATE delivery_job SET status = 'PENDING', lease_until = NULL, next_attempt_at = ?
						WHERE job_id = ? AND status = 'SENDING' AND attempts = ?""")
					.params(Timestamp.from(now.toInstant().plus(backoff)), job.id(), job.attempt())
					.update();
			}
			return pending;
		});
	}

	/**
	 * Deletes up to {@code limit} jobs finished before {@code before}, with their recipients, in one transaction.
	 *
	 * @return how many jobs were deleted
	 */
	int purgeFinished(Instant before, int limit) {
		return tx.execute(status -> {
			List<String> old = jdbc.sql("""
					SELECT job_id FROM delivery_job WHERE status = 'DONE' AND finished_at < ? LIMIT ? FOR UPDATE SKIP LOCKED""")
				.params(Timestamp.from(before), limit)
				.query(String.class)
				.list();
			if (!old.isEmpty()) {
				jdbc.sql("DELETE FROM recipient WHERE job_id IN (:old)").param("old", old).update();
				jdbc.sql("DELETE FROM delivery_job WHERE job_id IN (:old)").param("old", old).update();
			}
			return old.size();
		});
	}

	/** Jobs not yet done (the backlog a dashboard and the drain checks watch). */
	long backlog() {
		return jdbc.sql("SELECT COUNT(*) FROM delivery_job WHERE status <> 'DONE'").query(Long.class).single();
	}

	private static Timestamp now() {
		return Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
	}
}
