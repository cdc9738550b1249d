package dev.perflab.mail.message;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.util.MultiValueMap;

import dev.perflab.platform.ProblemException;

/**
 * The query of {@code GET /v2/mails}: {@code page}, {@code size}, {@code mailbox}, {@code sort[received_date]},
 * repeated {@code with}. Anything else, or any bad value, is a 400 naming the parameter. A page reaches the first
 * {@link #MAX_ROWS} mails of the list at most: the database reads and throws away every row before a page's offset,
 * and pages up to 1,000,000 asked it to skip 10^8 rows per request.
 */
record ListQuery(int page, int size, Long mailbox, boolean ascending, Set<Facet> with) {

	enum Facet {

		APPROVAL_MAIL, RECEIPT_CONFIRM, ENCRYPTED

	}

	/** the deepest a page reaches (page x size): 100 pages of 100, as far as any client of this API pages */
	static final int MAX_ROWS = 10_000;

	private static final Set<String> KNOWN = Set.of("page", "size", "mailbox", "sort[received_date]", "with");

	static ListQuery parse(MultiValueMap<String, String> params, int maxSize) {
		for (String name : params.keySet()) {
			if (!KNOWN.contains(name)) {
				throw bad(name.startsWith("sort[") ? "Sorting is only by received_date" : "Unknown parameter " + name);
			}
		}
		int size = (int) number(params, "size", 20, 1, maxSize);
		int page = (int) number(params, "page", 1, 1, MAX_ROWS / size);
		Long mailbox = params.containsKey("mailbox") ? number(params, "mailbox", 0, 1, Long.MAX_VALUE) : null;
		String sort = single(params, "sort[received_date]", "desc").toLowerCase(Locale.ROOT);
		if (!sort.equals("asc") && !sort.equals("desc")) {
			throw bad("sort[received_date] must be asc or desc");
		}
		Set<Facet> with = EnumSet.noneOf(Facet.class);
		for (String value : params.getOrDefault("with", List.of())) {
			try {
				with.add(Facet.valueOf(value.toUpperCase(Locale.ROOT)));
			}
			catch (IllegalArgumentException e) {
				throw bad("with must be one of approval_mail, receipt_confirm, encrypted");
			}
		}
		return new ListQuery(page, size, mailbox, sort.equals("asc"), with);
	}

	private static long number(Map<String, List<String>> params, String name, long fallback, long min, long max) {
		String value = single(params, name, null);
		if (value == null) {
			return fallback;
		}
		try {
			long n = Long.parseLong(value);
			if (n >= min && n <= max) {
				return n;
			}
		}
		catch (NumberFormatException e) {
			// reported below
		}
		throw bad(name + " must be a whole number from " + min + " to " + max);
	}

	private static String single(Map<String, List<String>> params, String name, String fallback) {
		List<String> values = params.get(name);
		if (values == null || values.isEmpty()) {
			return fallback;
		}
		if (values.size() > 1) {
			throw bad(name + " is given more than once");
		}
		return values.get(0);
	}

	private static ProblemException bad(String detail) {
		return ProblemException.badRequest("invalid-query", detail);
	}
}
