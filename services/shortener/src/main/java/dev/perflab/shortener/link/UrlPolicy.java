package dev.perflab.shortener.link;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import dev.perflab.platform.ProblemException;

/** Only absolute http(s) URLs with a host: a short link must never become a {@code javascript:} or {@code file:} one. */
final class UrlPolicy {

	static final int MAX_LENGTH = 2048;

	private UrlPolicy() {
	}

	static String check(String url) {
		if (url.length() > MAX_LENGTH) {
			throw ProblemException.badRequest("url-too-long", "The URL is longer than " + MAX_LENGTH + " characters");
		}
		for (int i = 0; i < url.length(); i++) {
			char c = url.charAt(i);
			if (c <= 0x20 || c == 0x7f) {
				throw ProblemException.badRequest("invalid-url", "The URL contains whitespace or control characters");
			}
		}
		URI uri;
		try {
			uri = new URI(url);
		}
		catch (URISyntaxException e) {
			throw ProblemException.badRequest("invalid-url", "The URL is not valid: " + e.getReason());
		}
		String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw ProblemException.badRequest("unsupported-scheme", "Only http and https URLs can be shortened");
		}
		if (uri.getHost() == null || uri.getHost().isBlank()) {
			throw ProblemException.badRequest("invalid-url", "The URL has no host");
		}
		// https://login.corp@evil.tld/ reads as login.corp to a person and goes to evil.tld: never shortened
		if (uri.getRawUserInfo() != null) {
			throw ProblemException.badRequest("invalid-url", "The URL carries a user name or password (user@host)");
		}
		return url;
	}
}
