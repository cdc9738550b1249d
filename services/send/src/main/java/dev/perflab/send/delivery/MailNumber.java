package dev.perflab.send.delivery;

import dev.perflab.platform.ProblemException;

/** Mail numbers in paths: positive longs, anything else is a 400 (never a 500 from a conversion failure). */
public final class MailNumber {

	private MailNumber() {
	}

	public static long parse(String value) {
		try {
			long no = Long.parseLong(value);
			if (no > 0) {
				return no;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw ProblemException.badRequest("invalid-path", "The mail number must be a positive integer");
	}
}
