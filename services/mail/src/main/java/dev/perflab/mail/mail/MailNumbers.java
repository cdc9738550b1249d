package dev.perflab.mail.mail;

import dev.perflab.platform.ProblemException;

/** Mail numbers and attachment indexes from the path: positive whole numbers, else 400. */
public final class MailNumbers {

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
}
