package dev.perflab.send.delivery;

import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Delivery status per recipient, through the gateway. Caller-scoped: another caller's mail is a 404, as is a mail
 * the outbox relay has not handed over yet (usually well under a second after the send was accepted).
 */
@RestController
class DeliveryController {

	private final JdbcClient jdbc;

	DeliveryController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/v2/mails/{mailNo}/delivery")
	Delivery read(Caller caller, @PathVariable String mailNo) {
		long no = MailNumber.parse(mailNo);
		long office = office(caller);
		Delivery delivery = jdbc.sql("""
				SELECT mail_no, status, attempts, created_at, finished_at, next_attempt_at FROM delivery_job
				WHERE mail_no = ? AND office_no = ? AND owner = ?""")
			.params(no, office, caller.user())
			.query((rs, i) -> new Delivery(rs.getLong("mail_no"), rs.getString("status").toLowerCase(java.util.Locale.ROOT),
					rs.getInt("attempts"), rs.getTimestamp("created_at").toInstant(), instant(rs.getTimestamp("finished_at")),
					"DONE".equals(rs.getString("status")) ? null : instant(rs.getTimestamp("next_attempt_at")), null))
			.optional()
			.orElseThrow(() -> ProblemException.notFound("No delivery for mail " + no));
		List<RecipientStatus> recipients = jdbc.sql("""
				SELECT email, kind, status, attempts, message_id, receipt_url, last_reply, delivered_at FROM recipient
				WHERE mail_no = ? ORDER BY email""")
			.param(no)
			.query((rs, i) -> new RecipientStatus(rs.getString("email"), rs.getString("kind"),
					rs.getString("status").toLowerCase(java.util.Locale.ROOT), rs.getInt("attempts"), rs.getString("message_id"),
					rs.getString("receipt_url"), rs.getString("last_reply"), instant(rs.getTimestamp("delivered_at"))))
			.list();
		return delivery.with(recipients);
	}

	private static long office(Caller caller) {
		try {
			return Long.parseLong(caller.office());
		}
		catch (NumberFormatException e) {
			throw ProblemException.notFound("No delivery for that office");
		}
	}

	private static Instant instant(java.sql.Timestamp timestamp) {
		return timestamp == null ? null : timestamp.toInstant();
	}

	record Delivery(long mailNo, String status, int attempts, Instant acceptedAt, Instant finishedAt, Instant nextAttemptAt,
			List<RecipientStatus> recipients) {

		Delivery with(List<RecipientStatus> list) {
			return new Delivery(mailNo, status, attempts, acceptedAt, finishedAt, nextAttemptAt, list);
		}
	}

	record RecipientStatus(String email, String kind, String status, int attempts, String messageId, String receiptUrl,
			String lastReply, Instant deliveredAt) {
	}
}
