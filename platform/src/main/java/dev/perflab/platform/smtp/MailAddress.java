package dev.perflab.platform.smtp;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.Problems;

/**
 * A bare mail address, the one rule mail applies to what a user addresses and send to what it puts in an SMTP
 * envelope: two copies of it disagreed, and an address mail answered 202 for was then refused by send and
 * dead-lettered. Printable ASCII only (0x21-0x7E): the relay is spoken to without SMTPUTF8 and the address is written
 * into the To: header every other recipient receives, so an address with other characters (the review found one in a
 * domain literal) put raw UTF-8 into their mail and was retried as "relay unreachable" until the attempts ran out.
 * Then Jakarta Mail's strict RFC 822 parse: no display name, no group, no comment, at most 254 characters (RFC 5321's
 * path limit). The value is lower-cased: mail's receipt keys and send's recipients are keyed by it.
 */
public record MailAddress(String value) {

	public static final int MAX_LENGTH = 254;

	public MailAddress {
		if (!valid(value)) {
			throw new IllegalArgumentException("not a bare printable-ASCII mail address");
		}
		value = value.toLowerCase(Locale.ROOT);
	}

	/** @return the address, or empty when the rule refuses {@code value} */
	public static Optional<MailAddress> parse(String value) {
		return valid(value) ? Optional.of(new MailAddress(value)) : Optional.empty();
	}

	/**
	 * @param field the address's place on the wire, as a caller finds it ({@code to[2]})
	 * @return the address; a refused one is a 400 {@code invalid-address} naming {@code field}
	 */
	public static MailAddress require(String field, String value) {
		return parse(value).orElseThrow(() -> invalid(field, value));
	}

	/** The address for Jakarta Mail (headers, envelopes). */
	public InternetAddress internetAddress() {
		try {
			return new InternetAddress(value, true);
		}
		catch (AddressException e) {
			throw new IllegalStateException("a checked address no longer parses: " + value, e);
		}
	}

	private static boolean valid(String value) {
		if (value == null || value.isEmpty() || value.length() > MAX_LENGTH
				|| !value.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
			return false;
		}
		try {
			InternetAddress address = new InternetAddress(value, true);
			return address.getPersonal() == null && !address.isGroup() && value.equals(address.getAddress());
		}
		catch (AddressException e) {
			return false;
		}
	}

	private static ProblemException invalid(String field, String value) {
		String message = "is not a bare address of printable ASCII, at most " + MAX_LENGTH + " characters";
		ProblemException refused = ProblemException.badRequest("invalid-address",
				field + " " + message + (value == null ? "" : ": " + shown(value)));
		refused.getBody().setProperty("errors", List.of(Problems.fieldError(field, message)));
		return refused;
	}

	/** the refused value as a reader can see it: what is not printable ASCII as '?', cut after 300 characters */
	private static String shown(String value) {
		String cut = value.length() > 300 ? value.substring(0, 300) + "..." : value;
		return cut.replaceAll("[^\\x20-\\x7e]", "?");
	}
}
