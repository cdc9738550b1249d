package dev.perflab.gateway.edge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * What the revalidated body cache ({@link RevalidatedBodyCacheGatewayFilterFactory}) takes part in, keys by, keeps and
 * for how long: each decided from a request's or a response's headers alone.
 */
final class RevalidatedBodyPolicy {

	/** The service's grant of freshness, for the gateway alone (never passed on). */
	static final String SURROGATE_CONTROL = "Surrogate-Control";

	/** The headers of a kept 200 that describe its body: kept, and answered with it. */
	static final List<String> REPRESENTATION = List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.CONTENT_ENCODING,
			HttpHeaders.CONTENT_LANGUAGE, HttpHeaders.CACHE_CONTROL, HttpHeaders.VARY, HttpHeaders.LAST_MODIFIED,
			HttpHeaders.EXPIRES);

	private static final Set<String> VARY_IN_KEY = Set.of("accept", "accept-encoding");

	private static final List<String> VALIDATORS = List.of(HttpHeaders.IF_NONE_MATCH, HttpHeaders.IF_MATCH,
			HttpHeaders.IF_MODIFIED_SINCE, HttpHeaders.IF_UNMODIFIED_SINCE, HttpHeaders.IF_RANGE, HttpHeaders.RANGE);

	private RevalidatedBodyPolicy() {
	}

	/** A caller's plain GET: one that sends its own validators or asks for a range is the service's to answer. */
	static boolean takesPart(ServerHttpRequest request) {
		if (request.getMethod() != HttpMethod.GET) {
			return false;
		}
		HttpHeaders headers = request.getHeaders();
		for (String validator : VALIDATORS) {
			if (headers.containsHeader(validator)) {
				return false;
			}
		}
		return true;
	}

	/** The caller's office (not the user), the path and query, and the two headers a kept body may vary by. */
	static String key(@Nullable String office, ServerHttpRequest request) {
		HttpHeaders headers = request.getHeaders();
		String query = request.getURI().getRawQuery();
		return (office == null ? "-" : office) + '\n' + request.getURI().getRawPath() + '?' + (query == null ? "" : query)
				+ '\n' + String.join(",", headers.getOrEmpty(HttpHeaders.ACCEPT))
				+ '\n' + String.join(",", headers.getOrEmpty(HttpHeaders.ACCEPT_ENCODING));
	}

	/**
	 * Until when the service lets the gateway answer without asking (its Surrogate-Control max-age, read as the
	 * redirect cache reads a max-age), from now.
	 */
	static long freshUntil(HttpHeaders headers, long now) {
		long seconds = EdgeCacheFilter.maxAge(String.join(",", headers.getOrEmpty(SURROGATE_CONTROL)));
		return now + TimeUnit.SECONDS.toNanos(Math.min(seconds, 86_400));
	}

	/**
	 * A 200 the cache may keep, judged by its headers alone: a strong ETag, no {@code no-store}, no cookie, and a
	 * {@code Vary} of at most {@code Accept} and {@code Accept-Encoding} (both part of the key).
	 */
	static boolean keepable(HttpHeaders headers) {
		String etag = headers.getETag();
		if (etag == null || etag.startsWith("W/") || headers.containsHeader(HttpHeaders.SET_COOKIE)) {
			return false;
		}
		String cacheControl = String.join(",", headers.getOrEmpty(HttpHeaders.CACHE_CONTROL)).toLowerCase(Locale.ROOT);
		if (cacheControl.contains("no-store")) {
			return false;
		}
		for (String vary : headers.getOrEmpty(HttpHeaders.VARY)) {
			for (String name : vary.split(",")) {
				if (!VARY_IN_KEY.contains(name.trim().toLowerCase(Locale.ROOT))) {
					return false;
				}
			}
		}
		return true;
	}

	/** The {@link #REPRESENTATION} headers of a response, name and value, as they are kept. */
	static List<String[]> representation(HttpHeaders headers) {
		List<String[]> representation = new ArrayList<>();
		for (String name : REPRESENTATION) {
			for (String value : headers.getOrEmpty(name)) {
				representation.add(new String[] { name, value });
			}
		}
		return List.copyOf(representation);
	}

}
