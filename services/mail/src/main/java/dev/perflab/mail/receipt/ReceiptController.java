package dev.perflab.mail.receipt;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.regex.Pattern;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.mail.MailNumbers;
import dev.perflab.platform.ProblemException;

/**
 * The public read-receipt hit, embedded in delivered mail. Idempotent: the first confirmation time is kept; a
 * repeat (mail clients fetch twice) changes nothing. One statement, no read-modify-write race.
 */
@RestController
class ReceiptController {

	private static final Pattern CERT_KEY = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	private final JdbcClient jdbc;

	ReceiptController(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@GetMapping("/v2/office/{officeNo}/receipt-confirm/{certKey}/email/{email}")
	Receipt confirm(@PathVariable String officeNo, @PathVariable String certKey, @PathVariable String email) {
		long office = MailNumbers.parse(officeNo, "office number", 1);
		if (!CERT_KEY.matcher(certKey).matches()) {
			throw ProblemException.badRequest("invalid-path", "The certificate key is not valid");
		}
		String address = validEmail(email);
		Timestamp now = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
		int matched = jdbc.sql("""
				UPDATE receipt_confirm SET confirmed_at = COALESCE(confirmed_at, ?)
				WHERE office_no = ? AND cert_key = ? AND email = ?""")
			.params(now, office, certKey, address)
			.update();
		if (matched == 0) {
			throw ProblemException.notFound("No read receipt for that key and address");
		}
		return jdbc.sql("SELECT mail_no, confirmed_at FROM receipt_confirm WHERE office_no = ? AND cert_key = ? AND email = ?")
			.params(office, certKey, address)
			.query((rs, i) -> new Receipt(rs.getLong("mail_no"), address, rs.getTimestamp("confirmed_at").toInstant()))
			.single();
	}

	private static String validEmail(String email) {
		try {
			InternetAddress address = new InternetAddress(email, true);
			if (address.getAddress().length() <= 254 && address.getPersonal() == null) {
				return address.getAddress().toLowerCase(java.util.Locale.ROOT);
			}
		}
		catch (AddressException e) {
			// reported below
		}
		throw ProblemException.badRequest("invalid-path", "The email address is not valid");
	}

	record Receipt(long mailNo, String email, Instant confirmedAt) {
	}
}
