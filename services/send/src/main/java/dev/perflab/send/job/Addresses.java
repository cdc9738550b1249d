package dev.perflab.send.job;

import java.util.Locale;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

import dev.perflab.platform.ProblemException;

/** Bare addresses only: no display name, no group, no control characters (envelope injection), at most 254 chars. */
final class Addresses {

	private Addresses() {
	}

	static String parse(String field, String value) {
		if (value == null || value.isEmpty() || value.length() > 254 || value.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
			throw invalid(field, value);
		}
		try {
			InternetAddress address = new InternetAddress(value, true);
			if (address.getPersonal() != null || address.isGroup() || !address.getAddress().equals(value)) {
				throw invalid(field, value);
			}
			return value.toLowerCase(Locale.ROOT);
		}
		catch (AddressException e) {
			throw invalid(field, value);
		}
	}

	private static ProblemException invalid(String field, String value) {
		return ProblemException.badRequest("invalid-address",
				field + " holds an invalid address" + (value == null ? "" : ": " + value.replaceAll("\\p{Cntrl}", "?")));
	}
}
