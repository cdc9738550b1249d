package dev.perflab.notifier.notification;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Every statement on the notification table. A claim pushes {@code next_attempt_at} a lease ahead and counts the
 * attempt, in one short transaction ({@code FOR UPDATE SKIP LOCKED}: replicas claim side by side without waiting);
 * the outcome is recorded on that attempt only, so a sender whose lease ran out changes nothing. The insert and the
 * reads answer requests on the requests' pool; claims and outcomes run on the {@link WorkDatabase}, so a request
 * never waits for a connection behind a send.
 */
@Component
class NotificationStore {

	private static final String COLUMNS = "id, channel, recipient, subject, body, attempts";

	private final JdbcClient requests;

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	@Autowired
	NotificationStore(JdbcClient requests, WorkDatabase work) {
		this(requests, work.jdbc(), work.tx());
	}

	private NotificationStore(JdbcClient requests, JdbcClient jdbc, TransactionTemplate tx) {
		this.requests = requests;
		this.jdbc = jdbc;
		this.tx = tx;
	}

	/**
	 * The same statements on the requests' pool, inside the caller's transaction: only the lab baseline claims and
	 * settles there (a claim on another connection would wait for the row lock of the uncommitted registration).
	 */
	NotificationStore inRequestTransaction() {
		return new NotificationStore(requests, requests, null);
	}

	/** Writes a PENDING notification (in the caller's transaction); the sweeper leaves it alone for {@code grace}. */
	long insert(Outgoing out, Duration grace) {
		KeyHolder key = new GeneratedKeyHolder();
		requests.sql("""
				INSERT INTO notification (office, channel, recipient, template, subject, body, status, next_attempt_at)
				VALUES (?, ?, ?, ?, ?, ?, 'PENDING', ?)""")
			.params(out.office(), out.channel().name(), out.recipient(), out.template(), out.subject(), out.body(),
					Timestamp.from(now().plus(grace)))
			.update(key);
		return key.getKey().longValue();
	}

	/**
	 * Claims a notification nobody has tried yet (the dispatch right after its registration): one UPDATE, the message
	 * came with the commit.
	 */
	Optional<Claimed> claimFresh(Pending pending, Duration lease) {
		int claimed = jdbc.sql("""
				UPDATE notification SET attempts = 1, next_attempt_at = ?
				WHERE id = ? AND status = 'PENDING' AND attempts = 0""")
			.params(Timestamp.from(now().plus(lease)), pending.id())
			.update();
		// 0: the sweeper took it first (its grace ran out)
		return claimed == 0 ? Optional.empty() : Optional.of(pending.claimed(1));
	}

	/** Claims these notifications if nobody has tried them yet (dispatches the executor refused). */
	List<Claimed> claimUntried(Collection<Long> ids, Duration lease) {
		if (ids.isEmpty()) {
			return List.of();
		}
		return claim("id IN (:ids) AND status = 'PENDING' AND attempts = 0", ids, ids.size(), lease);
	}

	/** Claims up to {@code limit} due notifications: past their grace, their backoff or a dead sender's lease. */
	List<Claimed> claimDue(int limit, Duration lease) {
		return claim("status = 'PENDING' AND next_attempt_at <= :now ORDER BY next_attempt_at", List.of(), limit, lease);
	}

	private List<Claimed> claim(String where, Collection<Long> ids, int limit, Duration lease) {
		Instant now = now();
		return tx.execute(status -> {
			List<Long> due = jdbc.sql("SELECT id FROM notification WHERE " + where + " LIMIT :limit FOR UPDATE SKIP LOCKED")
				.param("ids", ids.isEmpty() ? List.of(-1L) : ids)
				.param("now", Timestamp.from(now))
				.param("limit", limit)
				.query(Long.class)
				.list();
			if (due.isEmpty()) {
				return List.of();
			}
			jdbc.sql("UPDATE notification SET attempts = attempts + 1, next_attempt_at = :leaseEnd WHERE id IN (:due)")
				.param("leaseEnd", Timestamp.from(now.plus(lease)))
				.param("due", due)
				.update();
			return jdbc.sql("SELECT " + COLUMNS + " FROM notification WHERE id IN (:due)")
				.param("due", due)
				.query(NotificationStore::claimed)
				.list();
		});
	}

	boolean markSent(Claimed n) {
		return jdbc.sql("""
				UPDATE notification SET status = 'SENT', sent_at = ?, last_error = NULL, last_error_reason = NULL
				WHERE id = ? AND status = 'PENDING' AND attempts = ?""")
			.params(Timestamp.from(now()), n.id(), n.attempt())
			.update() == 1;
	}

	/** The provider's raw answer goes to {@code last_error} (internal); callers see {@code last_error_reason} only. */
	boolean markRetry(Claimed n, Duration backoff, DeliveryFailure failure) {
		return jdbc.sql("""
				UPDATE notification SET next_attempt_at = ?, last_error = ?, last_error_reason = ?
				WHERE id = ? AND status = 'PENDING' AND attempts = ?""")
			.params(Timestamp.from(now().plus(backoff)), trim(failure.getMessage()), failure.reason().slug, n.id(),
					n.attempt())
			.update() == 1;
	}

	boolean markFailed(Claimed n, DeliveryFailure failure) {
		return jdbc.sql("""
				UPDATE notification SET status = 'FAILED', last_error = ?, last_error_reason = ?
				WHERE id = ? AND status = 'PENDING' AND attempts = ?""")
			.params(trim(failure.getMessage()), failure.reason().slug, n.id(), n.attempt())
			.update() == 1;
	}

	Optional<NotificationView> find(String office, long id) {
		return requests.sql("""
				SELECT id, channel, recipient, template, status, attempts, created_at, next_attempt_at, sent_at,
				last_error IS NOT NULL AS failed_before, last_error_reason
				FROM notification WHERE id = ? AND office = ?""")
			.params(id, office)
			.query((rs, i) -> NotificationView.of(rs))
			.optional();
	}

	/** PENDING notifications and the age of the oldest, in seconds (0 when none). */
	long[] backlog() {
		return jdbc.sql("SELECT COUNT(*), MIN(created_at) FROM notification WHERE status = 'PENDING'")
			.query((rs, i) -> {
				Timestamp oldest = rs.getTimestamp(2);
				long age = oldest == null ? 0 : Math.max(0, Duration.between(oldest.toInstant(), now()).toSeconds());
				return new long[] { rs.getLong(1), age };
			})
			.single();
	}

	private static Claimed claimed(ResultSet rs, int row) throws SQLException {
		return new Claimed(rs.getLong("id"), Channel.valueOf(rs.getString("channel")), rs.getString("recipient"),
				rs.getString("subject"), rs.getString("body"), rs.getInt("attempts"));
	}

	private static String trim(String error) {
		return error == null || error.length() <= 500 ? error : error.substring(0, 500);
	}

	static Instant now() {
		return Instant.now().truncatedTo(ChronoUnit.MICROS);
	}
}
