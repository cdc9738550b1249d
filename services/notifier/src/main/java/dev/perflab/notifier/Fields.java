package dev.perflab.notifier;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.smtp.MailAddress;

/** Refuses bad input before anything is written: nothing half-checked reaches the database. */
public final class Fields {

	/** E.164: a + and 8 to 15 digits, the country code first (never 0) */
	private static final Pattern E164 = Pattern.compile("\\+[1-9][0-9]{7,14}");

	/** the country a national number (trunk prefix 0) is dialled in: perflab's offices are in Korea */
	private static final String DEFAULT_COUNTRY = "82";

	/** {@link #text}'s rule as a schema pattern: a character that is no space, and no control character but a line break */
	public static final String TEXT = "^[^\\u0000-\\u0009\\u000B-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u001F\\u007F-\\u009F][^\\u0000-\\u0009\\u000B-\\u001F\\u007F-\\u009F]*$";

	/** {@link #phone}'s rule as a schema pattern: the spellings that become an E.164 number */
	public static final String PHONE = "^[ -]*(?:(?:\\+[ -]*|0[ -]*0[ -]*)?(?:[1-79](?:[ -]*[0-9]){7,14}|8[ -]*[013-9](?:[ -]*[0-9]){6,13}|8[ -]*2[ -]*[1-9](?:[ -]*[0-9]){5,12}|8[ -]*2[ -]*0(?:[ -]*[0-9]){6,13})|0[ -]*[1-9](?:[ -]*[0-9]){5,12})[ -]*$";

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

	/**
	 * A phone number in E.164 ({@code +821012345678}), the one spelling every quota key and every stored row uses: a
	 * recipient's quota was counted per spelling, so {@code +8210…}, {@code 8210…} and {@code 008210…} were three
	 * recipients. Spaces and hyphens are dropped; {@code 00} is the international prefix; a national number (one
	 * leading 0) is in the default country, +82, whose numbers never keep the 0 after the country code.
	 */
	public static String phone(String field, String value) {
		String digits = value == null ? "" : value.replaceAll("[ -]", "");
		String international;
		if (digits.startsWith("+")) {
			international = digits.substring(1);
		}
		else if (digits.startsWith("00")) {
			international = digits.substring(2);
		}
		else if (digits.startsWith("0")) {
			international = DEFAULT_COUNTRY + digits.substring(1);
		}
		else {
			// digits with the country code but no + (8210…), as they are often copied
			international = digits;
		}
		if (international.startsWith(DEFAULT_COUNTRY + "0")) {
			international = DEFAULT_COUNTRY + international.substring(DEFAULT_COUNTRY.length() + 1);
		}
		String e164 = "+" + international;
		if (!E164.matcher(e164).matches()) {
			throw invalid(field, "is not a phone number (8 to 15 digits with the country code, or a national number from 0)");
		}
		return e164;
	}

	/** A bare address of printable ASCII (no display name, no group), at most 254 characters, with a dotted domain; lower-cased. */
	public static String email(String field, String value) {
		// mail's and send's rule (bare printable ASCII, Jakarta Mail's strict parse), and a dotted domain
		return MailAddress.parse(value)
			.map(MailAddress::value)
			.filter(address -> address.indexOf('.', address.indexOf('@')) > 0)
			.orElseThrow(() -> invalid(field, "is not an email address"));
	}

	/**
	 * A password of at least 8 characters that BCrypt takes whole: at most 72 bytes of UTF-8 (BCrypt ignores what
	 * follows the 72nd).
	 */
	public static String password(String field, String value) {
		if (value == null || value.codePointCount(0, value.length()) < 8) {
			throw invalid(field, "must be at least 8 characters");
		}
		if (value.getBytes(StandardCharsets.UTF_8).length > 72) {
			throw invalid(field, "must be at most 72 bytes of UTF-8");
		}
		return value;
	}

	private static ProblemException invalid(String field, String problem) {
		return ProblemException.invalidField(field, problem);
	}
}
