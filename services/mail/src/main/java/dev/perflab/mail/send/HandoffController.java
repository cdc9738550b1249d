package dev.perflab.mail.send;

import java.time.Instant;
import java.util.Locale;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.Accounts;
import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.message.MailNumbers;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Where a sent mail's hand-off to send stands: {@code queued} (the relay retries), {@code handed_over} (send's
 * {@code GET /v2/mails/{delivery_id}/delivery} tells each recipient's status) or {@code refused} (send refused it
 * for good: dead-lettered, not retried, counted in {@code perflab_mail_outbox_dead}). The owner's only.
 */
@RestController
class HandoffController {

	private final Accounts accounts;

	private final JdbcClient jdbc;

	HandoffController(Accounts accounts, JdbcClient jdbc) {
		this.accounts = accounts;
		this.jdbc = jdbc;
	}

	@GetMapping("/v2/mails/{no}/handoff")
	@ApiResponse(responseCode = "200", useReturnTypeSchema = true, description = "OK")
	@ApiResponse(responseCode = "403", description = "The caller's office is not a mail office, or the caller has no mail account")
	Handoff read(Caller caller, @Parameter(description = "the mail number", schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String no) {
		Account account = accounts.require(caller);
		long mailNo = MailNumbers.parse(no, "mail number", 1);
		String deliveryId = jdbc.sql("SELECT delivery_id FROM mail_content WHERE no = ? AND office_no = ? AND user_no = ?")
			.params(mailNo, account.office(), account.user())
			.query(String.class)
			.optional()
			.orElseThrow(() -> ProblemException.notFound("No sent mail " + mailNo));
		if (deliveryId == null) {
			throw ProblemException.notFound("Mail " + mailNo + " was not sent through this service");
		}
		return jdbc.sql("SELECT sent_at, dead_at, attempts, last_error, next_attempt_at FROM outbox WHERE job_id = ?")
			.param(deliveryId)
			.query((rs, i) -> {
				String state = rs.getTimestamp("dead_at") != null ? "refused"
						: rs.getTimestamp("sent_at") != null ? "handed_over" : "queued";
				return new Handoff(mailNo, deliveryId, state, rs.getInt("attempts"),
						reason(state, rs.getString("last_error")),
						"queued".equals(state) ? rs.getTimestamp("next_attempt_at").toInstant() : null);
			})
			.optional()
			// the row is purged a while after send took it
			.orElse(new Handoff(mailNo, deliveryId, "handed_over", null, null, null));
	}

	/** a stable reason; the raw error (send's answer, a file path) stays in the row for an operator */
	private static String reason(String state, String error) {
		if (error == null || "handed_over".equals(state)) {
			return null;
		}
		if (error.startsWith("EML file missing")) {
			return "eml_missing";
		}
		if (error.startsWith("send answered ")) {
			return ("refused".equals(state) ? "refused_by_send_" : "send_answered_") + error.substring(14).trim().toLowerCase(Locale.ROOT);
		}
		return "send_unreachable";
	}

	record Handoff(long mailNo, String deliveryId, String state, Integer attempts, String reason, Instant nextAttemptAt) {
	}
}
