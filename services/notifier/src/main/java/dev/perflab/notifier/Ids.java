package dev.perflab.notifier;

import dev.perflab.platform.ProblemException;

/** Ids in paths: positive longs, anything else is a 400 (never a 500 from a conversion failure). */
public final class Ids {

	private Ids() {
	}

	public static long parse(String value, String what) {
		try {
			long id = Long.parseLong(value);
			if (id > 0) {
				return id;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw ProblemException.badRequest("invalid-path", "The " + what + " id must be a positive integer");
	}
}
