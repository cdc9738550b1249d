package dev.perflab.mail.message;

import java.util.OptionalInt;
import java.util.regex.Pattern;

import dev.perflab.platform.ProblemException;

/** Mail numbers and attachment indexes from the path: positive whole numbers, else 400. */
public final class MailNumbers {

	private static final Pattern WHOLE = Pattern.compile("\\+?[0-9]+");

	private MailNumbers() {
	}

	public static long parse(String value) {
		return parse(value, "mail number", 1);
	}

	public static long parse(String value, String what, long min) {
		try {
			long n = Long.parseLong(value);
			if (n >= min) {
				return n;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw ProblemException.badRequest("invalid-path", "The " + what + " must be a whole number of at least " + min);
	}

	/**
	 * An index from the path (0 and up): 400 as {@link #parse} when it is no whole number or below 0; empty when it is
	 * a whole number past the largest int, which no list reaches. Never cut down to an int: 4294967296 read as
	 * {@code (int)} is 0, and served the first attachment.
	 */
	public static OptionalInt index(String value, String what) {
		long n;
		try {
			n = parse(value, what, 0);
		}
		catch (ProblemException notALong) {
			if (!WHOLE.matcher(value).matches()) {
				throw notALong;
			}
			n = Long.MAX_VALUE; // a whole number past every long: still a well-formed index of nothing
		}
		return n > Integer.MAX_VALUE ? OptionalInt.empty() : OptionalInt.of((int) n);
	}
}
