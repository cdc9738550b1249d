package dev.perflab.mail.send;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;

import dev.perflab.platform.ProblemException;

/** Strict address checks: a bare address, no display name, no CR/LF (header injection), at most 254 chars. */
final class Recipients {

	private Recipients() {
	}

	static List<InternetAddress> parse(String field, List<String> values) {
		List<InternetAddress> out = new ArrayList<>();
		for (String value : values) {
			out.add(parse(field, value));
		}
		return out;
	}

	static InternetAddress parse(String field, String value) {
		if (value == null || value.length() > 254 || value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
			throw invalid(field, value);
		}
		try {
			InternetAddress address = new InternetAddress(value, true);
			if (address.getPersonal() != null || !address.getAddress().equals(value.trim()) || address.isGroup()) {
				throw invalid(field, value);
			}
			return new InternetAddress(value.trim().toLowerCase(Locale.ROOT), true);
		}
		catch (AddressException e) {
			throw invalid(field, value);
		}
	}

	static Set<String> unique(List<InternetAddress> to, List<InternetAddress> cc, List<InternetAddress> bcc) {
		Set<String> all = new LinkedHashSet<>();
		for (List<InternetAddress> list : List.of(to, cc, bcc)) {
			list.forEach(a -> all.add(a.getAddress()));
		}
		return all;
	}

	private static ProblemException invalid(String field, String value) {
		return ProblemException.badRequest("invalid-address",
				field + " holds an invalid address" + (value == null ? "" : ": " + value.replaceAll("\\p{Cntrl}", "?")));
	}
}
