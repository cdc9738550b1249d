package dev.perflab.gateway.web;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Every request gets an {@code X-Request-Id}: the client's if it is a sane token, a new one otherwise. It goes
 * back to the client, into the access log, and (for proxied requests only, see {@link Forward}) to the service,
 * which logs it on every line.
 */
@Component
public class RequestIdFilter implements WebFilter, Ordered {

	public static final String HEADER = "X-Request-Id";

	public static final String ATTRIBUTE = RequestIdFilter.class.getName() + ".id";

	private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String id = exchange.getRequest().getHeaders().getFirst(HEADER);
		if (id == null || id.length() > 64 || !SANE.matcher(id).matches()) {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			// a correlation id, not a secret: no SecureRandom on the hot path
			id = new UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() & ~(3L << 62) | (1L << 63)).toString();
		}
		exchange.getAttributes().put(ATTRIBUTE, id);
		exchange.getResponse().getHeaders().set(HEADER, id);
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/** Puts the id on the request to the service, and keeps one copy on the answer (the service echoes it). */
	@Component
	static class Forward implements GlobalFilter, Ordered {

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
			String id = exchange.getAttribute(ATTRIBUTE);
			if (id == null) {
				return chain.filter(exchange);
			}
			exchange.getResponse().beforeCommit(() -> {
				exchange.getResponse().getHeaders().set(HEADER, id);
				return Mono.empty();
			});
			return chain.filter(exchange.mutate().request(r -> r.headers(h -> h.set(HEADER, id))).build());
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}
	}
}
