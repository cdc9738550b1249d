package dev.perflab.gateway.malformed;

import java.util.Locale;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.perflab.gateway.web.Problems;

/**
 * Refuses, at the edge and as problem+json, a path carrying an encoded {@code /}, {@code \} or NUL, or a dot segment
 * ({@code .} or {@code ..}, encoded or not, with or without a {@code ;parameter}). No route has a use for one, and
 * each is read differently by different hops: the gateway matched {@code /s/a%2Fb} as one segment and forwarded it,
 * and the shortener's Tomcat then refused it with an HTML error page that reached the client; the gateway routed
 * {@code /v2/mails/../../x} by its prefix, and Tomcat either resolved it to another path of the service than the one
 * routed or refused it with that HTML page.
 */
public class EncodedSeparatorFilter implements WebFilter, Ordered {

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String raw = exchange.getRequest().getURI().getRawPath();
		if (raw != null && raw.indexOf('%') >= 0) {
			String upper = raw.toUpperCase(Locale.ROOT);
			if (upper.contains("%2F") || upper.contains("%5C") || upper.contains("%00")) {
				return Problems.write(exchange.getResponse(), HttpStatus.BAD_REQUEST, "malformed-request",
						"An encoded '/', '\\' or NUL is not allowed in the path", raw);
			}
		}
		if (raw != null && hasDotSegment(raw)) {
			return Problems.write(exchange.getResponse(), HttpStatus.BAD_REQUEST, "malformed-request",
					"A '.' or '..' segment is not allowed in the path", raw);
		}
		return chain.filter(exchange);
	}

	private static boolean hasDotSegment(String raw) {
		if (raw.indexOf('.') < 0 && raw.indexOf('%') < 0) {
			return false;
		}
		for (String segment : raw.split("/", -1)) {
			int parameters = segment.indexOf(';');
			String name = (parameters < 0 ? segment : segment.substring(0, parameters)).toLowerCase(Locale.ROOT)
				.replace("%2e", ".");
			if (name.equals(".") || name.equals("..")) {
				return true;
			}
		}
		return false;
	}

	@Override
	public int getOrder() {
		// before the edge cache and authentication: a malformed path is refused the same way on every route
		return Ordered.HIGHEST_PRECEDENCE + 3;
	}
}
