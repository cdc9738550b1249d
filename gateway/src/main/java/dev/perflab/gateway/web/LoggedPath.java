package dev.perflab.gateway.web;

/**
 * A request path as the gateway's logs write it: the key of a read-receipt link
 * ({@code /v2/office/<n>/receipt-confirm/<key>}, in every delivered mail) is a credential of its recipient, so it is
 * written as {@code {key}}. Query strings are never logged.
 */
final class LoggedPath {

	static final String RECEIPT_CONFIRM = "/receipt-confirm/";

	private LoggedPath() {
	}

	static String of(String path) {
		int at = receiptConfirm(path);
		if (at < 0) {
			return path;
		}
		int key = at + RECEIPT_CONFIRM.length();
		int end = path.indexOf('/', key);
		return path.substring(0, key) + "{key}" + (end < 0 ? "" : path.substring(end));
	}

	/** In any case: a path the route does not match (404) may still carry a real key. No copy of the path. */
	private static int receiptConfirm(String path) {
		for (int at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) {
			if (path.regionMatches(true, at, RECEIPT_CONFIRM, 0, RECEIPT_CONFIRM.length())) {
				return at;
			}
		}
		return -1;
	}
}
