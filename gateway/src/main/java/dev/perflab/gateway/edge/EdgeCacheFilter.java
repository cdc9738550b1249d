package dev.perflab.gateway.edge;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Answers {@code GET /s/{code}} from the edge cache when it can, in one hop; otherwise lets the request through
 * to the shortener and keeps what came back if the shortener allowed it ({@code Cache-Control: max-age}).
 * Clients are told not to cache redirects themselves, so a delete takes effect everywhere at once.
 */
public class EdgeCacheFilter implements WebFilter, Ordered {

	static final String HEADER = "X-Perflab-Edge-Cache";

	private static final Pattern CODE = Pattern.compile("/s/([A-Za-z0-9]{1,11})");

	private static final Pattern MAX_AGE = Pattern.compile("(?:^|[,\\s])max-age=(\\d+)");

	private final EdgeCache cache;

	public EdgeCacheFilter(EdgeCache cache) {
		this.cache = cache;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (exchange.getRequest().getMethod() != HttpMethod.GET) {
			return chain.filter(exchange);
		}
		Matcher matcher = CODE.matcher(exchange.getRequest().getPath().value());
		if (!matcher.matches()) {
			return chain.filter(exchange);
		}
		String code = matcher.group(1);
		ServerHttpResponse response = exchange.getResponse();
		EdgeCache.Redirect hit = cache.lookup(code);
		if (hit != null) {
			response.setStatusCode(HttpStatusCode.valueOf(hit.status()));
			HttpHeaders headers = response.getHeaders();
			headers.set(HttpHeaders.LOCATION, hit.location());
			headers.set(HttpHeaders.CACHE_CONTROL, "no-cache");
			headers.set(HEADER, "hit");
			headers.setContentLength(0);
			exchange.getAttributes().put(dev.perflab.gateway.web.AccessLogFilter.EDGE_HIT, Boolean.TRUE);
			return response.setComplete();
		}
		EdgeCache.Ticket ticket = cache.ticket();
		response.getHeaders().set(HEADER, "miss");
		response.beforeCommit(() -> {
			HttpStatusCode status = response.getStatusCode();
			HttpHeaders headers = response.getHeaders();
			if (status != null && (status.value() == HttpStatus.FOUND.value()
					|| status.value() == HttpStatus.MOVED_PERMANENTLY.value())) {
				String location = headers.getFirst(HttpHeaders.LOCATION);
				long maxAge = maxAge(headers.getFirst(HttpHeaders.CACHE_CONTROL));
				if (location != null && maxAge > 0) {
					cache.store(code, status.value(), location, maxAge, ticket);
				}
				headers.set(HttpHeaders.CACHE_CONTROL, "no-cache");
			}
			return Mono.empty();
		});
		return chain.filter(exchange);
	}

	static long maxAge(String cacheControl) {
		if (cacheControl == null || cacheControl.contains("no-store") || cacheControl.contains("private")) {
			return 0;
		}
		Matcher m = MAX_AGE.matcher(cacheControl);
		return m.find() ? Long.parseLong(m.group(1)) : 0;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 5;
	}
}
