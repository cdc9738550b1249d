package dev.perflab.mail.receipt;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.message.MailNumbers;
import dev.perflab.platform.ProblemException;

/**
 * The public read-receipt hit, embedded in delivered mail. The key is the recipient's own, 128 random bits mail
 * generated at send time (seed 000 let the client choose it, e.g. "k1", and answered which address got which mail):
 * the answer is a bare 204, naming neither the mail nor the address. The gateway limits the route per client address.
 * Idempotent: the first confirmation time is kept; a repeat (mail clients fetch twice) changes nothing.
 */
@RestController
class ReceiptController {

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]{22}");

	private final JdbcClient jdbc;

	ReceiptController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/v2/office/{officeNo}/receipt-confirm/{key}")
	@ApiResponse(responseCode = "204", description = "Confirmed (or confirmed before)")
	ResponseEntity<Void> confirm(
			@Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String officeNo,
			@Parameter(schema = @Schema(type = "string", pattern = "^[A-Za-z0-9_-]{22}$")) @PathVariable String key) {
		long office = MailNumbers.parse(officeNo, "office number", 1);
		if (!KEY.matcher(key).matches()) {
			throw ProblemException.badRequest("invalid-path", "The receipt key is not valid");
		}
		Timestamp now = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
		int matched = jdbc.sql("""
				UPDATE receipt_confirm SET confirmed_at = COALESCE(confirmed_at, ?) WHERE office_no = ? AND cert_key = ?""")
			.params(now, office, key)
			.update();
		if (matched == 0) {
			throw ProblemException.notFound("No read receipt for that key");
		}
		return ResponseEntity.noContent().build();
	}
}
