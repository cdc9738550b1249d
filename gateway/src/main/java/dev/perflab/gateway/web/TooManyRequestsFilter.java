package dev.perflab.gateway.web;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/** The rate limiter answers 429 with an empty body; callers get a problem+json they can act on instead. */
@Component
class TooManyRequestsFilter implements GlobalFilter, Ordered {

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		ServerHttpResponseDecorator response = new ServerHttpResponseDecorator(exchange.getResponse()) {
			@Override
			public Mono<Void> setComplete() {
				if (HttpStatus.TOO_MANY_REQUESTS.equals(getStatusCode()) && !isCommitted()) {
					return Problems.write(getDelegate(), HttpStatus.TOO_MANY_REQUESTS, "rate-limited",
							"Too many requests from this caller; slow down", exchange.getRequest().getPath().value());
				}
				return super.setComplete();
			}
		};
		return chain.filter(exchange.mutate().response(response).build());
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 1;
	}
}
