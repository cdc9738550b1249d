package dev.perflab.mail.receipt;

import java.time.Instant;
import java.util.List;

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
 * Which recipients of a sent mail confirmed its read receipt, for the sender only. It says whether and when, never the
 * key: a key is its recipient's alone, and a sender who held it could confirm the receipt themselves.
 */
@RestController
class ReceiptStatusController {

	private final Accounts accounts;

	private final JdbcClient jdbc;

	ReceiptStatusController(Accounts accounts, JdbcClient jdbc) {
		this.accounts = accounts;
		this.jdbc = jdbc;
	}

	@GetMapping("/v2/mails/{no}/receipts")
	@ApiResponse(responseCode = "200", useReturnTypeSchema = true, description = "OK")
	@ApiResponse(responseCode = "403", description = "The caller's office is not a mail office, or the caller has no mail account")
	Receipts read(Caller caller, @Parameter(description = "the mail number", schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String no) {
		Account account = accounts.require(caller);
		long mailNo = MailNumbers.parse(no);
		boolean own = jdbc.sql("SELECT COUNT(*) FROM mail_content WHERE no = ? AND office_no = ? AND user_no = ?")
			.params(mailNo, account.office(), account.user())
			.query(Long.class)
			.single() > 0;
		if (!own) {
			throw ProblemException.notFound("No sent mail " + mailNo);
		}
		List<Receipt> receipts = jdbc.sql("""
				SELECT email, confirmed_at FROM receipt_confirm WHERE office_no = ? AND mail_no = ? ORDER BY email""")
			.params(account.office(), mailNo)
			.query((rs, i) -> {
				java.sql.Timestamp at = rs.getTimestamp("confirmed_at");
				return new Receipt(rs.getString("email"), at != null, at == null ? null : at.toInstant());
			})
			.list();
		return new Receipts(mailNo, receipts);
	}

	record Receipts(long mailNo, List<Receipt> receipts) {
	}

	record Receipt(String email, boolean confirmed, Instant confirmedAt) {
	}
}
