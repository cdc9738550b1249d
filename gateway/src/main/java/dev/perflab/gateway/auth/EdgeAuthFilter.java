package dev.perflab.gateway.auth;

import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.perflab.gateway.web.Problems;

/**
 * Edge authentication. Client-sent identity headers are always removed; on every route that is not explicitly
 * public the bearer token must verify, and the verified user and office are forwarded as
 * {@code X-Perflab-User} / {@code X-Perflab-Office}. The services trust only these.
 */
public class EdgeAuthFilter implements WebFilter, Ordered {

	public static final String USER_ATTRIBUTE = EdgeAuthFilter.class.getName() + ".user";

	static final String USER = "X-Perflab-User";

	static final String OFFICE = "X-Perflab-Office";

	private final TokenVerifier verifier;

	private final List<PathPattern> publicPaths;

	public EdgeAuthFilter(TokenVerifier verifier, List<String> publicPaths) {
		this.verifier = verifier;
		this.publicPaths = publicPaths.stream().map(PathPatternParser.defaultInstance::parse).toList();
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (WebServerApplicationContext.hasServerNamespace(exchange.getApplicationContext(), "management")) {
			// actuator's own port (probes, Prometheus): never routed, never public, closed by the NetworkPolicy
			return chain.filter(exchange);
		}
		ServerHttpRequest request = exchange.getRequest();
		boolean spoofed = request.getHeaders().headerNames().stream().anyMatch(EdgeAuthFilter::isIdentityHeader);
		if (isPublic(request.getPath().pathWithinApplication())) {
			return chain.filter(spoofed ? strip(exchange, null) : exchange);
		}
		String authorization = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
			return unauthorized(exchange, "A bearer token is required");
		}
		TokenVerifier.Identity identity;
		try {
			identity = verifier.verify(authorization.substring(7).trim());
		}
		catch (TokenVerifier.InvalidTokenException e) {
			return unauthorized(exchange, "The bearer token is not valid: " + e.getMessage());
		}
		exchange.getAttributes().put(USER_ATTRIBUTE, identity.user());
		return chain.filter(strip(exchange, identity));
	}

	private boolean isPublic(PathContainer path) {
		for (PathPattern pattern : publicPaths) {
			if (pattern.matches(path)) {
				return true;
			}
		}
		return false;
	}

	private static ServerWebExchange strip(ServerWebExchange exchange, TokenVerifier.Identity identity) {
		return exchange.mutate().request(r -> r.headers(h -> {
			for (String name : List.copyOf(h.headerNames())) {
				if (isIdentityHeader(name)) {
					h.remove(name);
				}
			}
			if (identity != null) {
				h.set(USER, identity.user());
				h.set(OFFICE, identity.office());
			}
		})).build();
	}

	private static boolean isIdentityHeader(String name) {
		return name.regionMatches(true, 0, "X-Perflab-", 0, 10) && !name.equalsIgnoreCase("X-Perflab-Edge-Cache");
	}

	private static Mono<Void> unauthorized(ServerWebExchange exchange, String detail) {
		exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"perflab\"");
		return Problems.write(exchange.getResponse(), HttpStatus.UNAUTHORIZED, "unauthenticated", detail,
				exchange.getRequest().getPath().value());
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}
}
