package dev.perflab.send.delivery;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Delivery status per recipient, through the gateway, named by the delivery id mail answered the send with. A mail
 * number is still taken and answers the caller's newest job under it: numbers repeat once mail's database is
 * recreated, the id never does. Caller-scoped: another caller's job is a 404, as is one the outbox relay has not
 * handed over yet (usually well under a second after the send was accepted; mail's {@code GET /v2/mails/{no}/handoff}
 * tells a hand-off that is queued or was refused). The caller is compared exactly: {@code owner} has a binary collation
 * and an office is its number written the one way ("01" is no office). A recipient's read-receipt key is theirs alone:
 * the sender sees that their message asked for a receipt, never the link, which would let the sender confirm it.
 */
@RestController
class DeliveryController {

	private static final Pattern DELIVERY_ID = Pattern.compile("[A-Za-z0-9-]{16,64}");

	private static final String JOB = """
			SELECT job_id, mail_no, status, attempts, created_at, finished_at, next_attempt_at FROM delivery_job
			WHERE office_no = ? AND owner = ? AND """;

	private final JdbcClient jdbc;

	DeliveryController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/v2/mails/{ref}/delivery")
	Delivery read(Caller caller, @Parameter(description = "the delivery_id mail answered the send with, or a mail number "
			+ "(all digits, 1 and up)", schema = @Schema(type = "string",
					pattern = "^(?:0*[1-9][0-9]{0,17}|(?=[A-Za-z0-9-]{16,64}$)[0-9]*[A-Za-z-][A-Za-z0-9-]*)$"))
			@PathVariable String ref) {
		long office = office(caller);
		JdbcClient.StatementSpec job = ref.chars().allMatch(Character::isDigit)
				? jdbc.sql(JOB + " mail_no = ? ORDER BY created_at DESC LIMIT 1")
					.params(office, caller.user(), MailNumber.parse(ref))
				: jdbc.sql(JOB + " job_id = ?").params(office, caller.user(), deliveryId(ref));
		Delivery delivery = job
			.query((rs, i) -> new Delivery(rs.getString("job_id"), rs.getLong("mail_no"),
					rs.getString("status").toLowerCase(Locale.ROOT), rs.getInt("attempts"),
					rs.getTimestamp("created_at").toInstant(), instant(rs.getTimestamp("finished_at")),
					"DONE".equals(rs.getString("status")) ? null : instant(rs.getTimestamp("next_attempt_at")), null))
			.optional()
			.orElseThrow(() -> ProblemException.notFound("No delivery " + ref));
		List<RecipientStatus> recipients = jdbc.sql("""
				SELECT email, kind, status, attempts, message_id, receipt_url, last_reply, delivered_at FROM recipient
				WHERE job_id = ? ORDER BY email""")
			.param(delivery.deliveryId())
			.query((rs, i) -> {
				String status = rs.getString("status");
				return new RecipientStatus(rs.getString("email"), rs.getString("kind"), status.toLowerCase(Locale.ROOT),
						Reason.of(status, rs.getString("last_reply")), rs.getInt("attempts"), rs.getString("message_id"),
						rs.getString("receipt_url") != null, instant(rs.getTimestamp("delivered_at")));
			})
			.list();
		return delivery.with(recipients);
	}

	private static String deliveryId(String ref) {
		if (!DELIVERY_ID.matcher(ref).matches()) {
			throw ProblemException.badRequest("invalid-path", "Name a delivery by its delivery_id or a mail number");
		}
		return ref;
	}

	private static long office(Caller caller) {
		try {
			long office = Long.parseLong(caller.office());
			if (Long.toString(office).equals(caller.office())) {
				return office;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw ProblemException.notFound("No delivery for that office");
	}

	private static Instant instant(java.sql.Timestamp timestamp) {
		return timestamp == null ? null : timestamp.toInstant();
	}

	/**
	 * The relay's raw reply stays in the database and the logs for an operator; a user gets a stable reason instead
	 * (the reply names relay hosts, software and queue ids).
	 */
	enum Reason {

		/** the relay took the message */
		ACCEPTED,
		/** not tried yet */
		QUEUED,
		/** the relay asked to try later (4xx); retried with backoff */
		DEFERRED,
		/** the relay could not be reached; retried with backoff */
		RELAY_UNREACHABLE,
		/** the relay refused the recipient for good (5xx) */
		REJECTED,
		/** an address no relay can take (not printable ASCII): failed at once, never sent */
		INVALID_ADDRESS,
		/** still deferred or unreachable when the attempts ran out */
		GAVE_UP;

		static String of(String status, String lastReply) {
			Reason reason = switch (status) {
				case "DELIVERED" -> ACCEPTED;
				case "FAILED" -> lastReply == null ? REJECTED : lastReply.startsWith("gave up") ? GAVE_UP
						: lastReply.startsWith(SmtpRelay.INVALID_ADDRESS) ? INVALID_ADDRESS : REJECTED;
				default -> lastReply == null ? QUEUED : lastReply.startsWith("no reply") ? RELAY_UNREACHABLE : DEFERRED;
			};
			return reason.name().toLowerCase(Locale.ROOT);
		}
	}

	record Delivery(String deliveryId, long mailNo, String status, int attempts, Instant acceptedAt, Instant finishedAt,
			Instant nextAttemptAt, List<RecipientStatus> recipients) {

		Delivery with(List<RecipientStatus> list) {
			return new Delivery(deliveryId, mailNo, status, attempts, acceptedAt, finishedAt, nextAttemptAt, list);
		}
	}

	/** @param readReceipt whether this recipient's message carries a read-receipt link (mail tells if it was followed) */
	record RecipientStatus(String email, String kind, String status, String reason, int attempts, String messageId,
			boolean readReceipt, Instant deliveredAt) {
	}
}
