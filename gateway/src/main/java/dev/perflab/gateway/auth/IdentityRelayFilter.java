package dev.perflab.gateway.auth;

import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentitySigner;

/**
 * Hands the service the caller the edge verified, as a short-lived identity token signed by the gateway for that
 * service alone ({@code aud} = the route's service): a pod that reaches a service directly cannot make itself any
 * user, and a token captured at one service is refused by the others. The service is the route's {@code service}
 * metadata, or the route id up to its first {@code -} ({@code mail-api} → {@code mail}).
 * <p>
 * Signed last, right before the request leaves (after the rate limit and after the edge body cache's fresh answers,
 * {@code LOWEST_PRECEDENCE - 20}): a request refused or answered at the gateway never reaches a service and pays
 * no signature.
 */
public class IdentityRelayFilter implements GlobalFilter, Ordered {

	public static final String SERVICE_METADATA = "service";

	private final IdentitySigner signer;

	public IdentityRelayFilter(IdentitySigner signer) {
		this.signer = signer;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		String user = exchange.getAttribute(EdgeAuthFilter.USER_ATTRIBUTE);
		Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
		if (user == null || route == null) {
			return chain.filter(exchange);
		}
		String token = signer.sign(user, exchange.getAttribute(EdgeAuthFilter.OFFICE_ATTRIBUTE), service(route));
		return chain.filter(exchange.mutate().request(r -> r.headers(h -> h.set(Identity.HEADER, token))).build());
	}

	static String service(Route route) {
		if (route.getMetadata().get(SERVICE_METADATA) instanceof String service && !service.isBlank()) {
			return service;
		}
		int dash = route.getId().indexOf('-');
		return dash < 0 ? route.getId() : route.getId().substring(0, dash);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE - 15;
	}
}
