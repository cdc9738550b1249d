package dev.perflab.notifier;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.smtp.MailAddress;

/** Refuses bad input before anything is written: nothing half-checked reaches the database. */
public final class Fields {

	private static final Pattern PHONE = Pattern.compile("\\+?[0-9]{8,15}");

	private Fields() {
	}

	/** Trimmed text of 1 to {@code max} characters without control characters. */
	public static String text(String field, String value, int max) {
		if (value == null || value.isBlank()) {
			throw invalid(field, "is required");
		}
		String trimmed = value.strip();
		if (trimmed.codePointCount(0, trimmed.length()) > max) {
			throw invalid(field, "is longer than " + max + " characters");
		}
		if (trimmed.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\n')) {
			throw invalid(field, "holds control characters");
		}
		return trimmed;
	}

	/** A phone number as digits with an optional leading +, 8 to 15 digits; spaces and hyphens between are dropped. */
	public static String phone(String field, String value) {
		String digits = value == null ? "" : value.replaceAll("[ -]", "");
		if (!PHONE.matcher(digits).matches()) {
			throw invalid(field, "is not a phone number (8 to 15 digits, optionally +country code)");
		}
		return digits;
	}

	/** A bare address of printable ASCII (no display name, no group), at most 254 characters, with a dotted domain; lower-cased. */
	public static String email(String field, String value) {
		// mail's and send's rule (bare printable ASCII, Jakarta Mail's strict parse), and a dotted domain
		return MailAddress.parse(value)
			.map(MailAddress::value)
			.filter(address -> address.indexOf('.', address.indexOf('@')) > 0)
			.orElseThrow(() -> invalid(field, "is not an email address"));
	}

	/** A password BCrypt takes whole: 8 to 72 bytes of UTF-8 (BCrypt ignores what follows the 72nd). */
	public static String password(String field, String value) {
		int bytes = value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
		if (bytes < 8 || bytes > 72) {
			throw invalid(field, "must be 8 to 72 bytes");
		}
		return value;
	}

	private static ProblemException invalid(String field, String problem) {
		return ProblemException.invalidField(field, problem);
	}
}
