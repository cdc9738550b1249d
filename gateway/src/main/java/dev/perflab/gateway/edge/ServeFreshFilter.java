package dev.perflab.gateway.edge;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers a read the revalidated body cache ({@link RevalidatedBodyCacheGatewayFilterFactory}) found fresh, once every
 * filter before the routing (the edge's checks, the route's rate limit) let it through; the service is not asked.
 */
public final class ServeFreshFilter implements GlobalFilter, Ordered {

	/** The exchange attribute that carries a fresh kept body from the route's filter to this one. */
	static final String FRESH = ServeFreshFilter.class.getName() + ".fresh";

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		RevalidatedBodies.Body fresh = exchange.getAttribute(FRESH);
		if (fresh != null && exchange.getResponse() instanceof RevalidatingResponse response) {
			return response.answer(fresh, "hit");
		}
		return chain.filter(exchange);
	}

	@Override
	public int getOrder() {
		// after the route's filters, right before the read retry and the routing filters
		return Ordered.LOWEST_PRECEDENCE - 20;
	}

}
