package dev.perflab.gateway.auth;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.oauth2.server.resource.web.server.authentication.ServerBearerTokenAuthenticationConverter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.perflab.gateway.web.Problems;

/**
 * Edge authentication. Client-sent {@code X-Perflab-*} headers are always removed; on every route that is not
 * explicitly public the bearer token (RFC 6750, read by the resource server's converter) must verify, and the
 * verified user and office are left as exchange attributes for {@link IdentityRelayFilter}, which hands the service
 * a short-lived identity token signed by the gateway. Services trust only that token.
 */
public class EdgeAuthFilter implements WebFilter, Ordered {

	private static final Logger log = LoggerFactory.getLogger(EdgeAuthFilter.class);

	public static final String USER_ATTRIBUTE = EdgeAuthFilter.class.getName() + ".user";

	public static final String OFFICE_ATTRIBUTE = EdgeAuthFilter.class.getName() + ".office";

	private final EdgeTokenVerifier verifier;

	private final List<PathPattern> publicPaths;

	private final ServerBearerTokenAuthenticationConverter bearer = new ServerBearerTokenAuthenticationConverter();

	public EdgeAuthFilter(EdgeTokenVerifier verifier, List<String> publicPaths) {
		this.verifier = verifier;
		this.publicPaths = publicPaths.stream().map(PathPatternParser.defaultInstance::parse).toList();
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (WebServerApplicationContext.hasServerNamespace(exchange.getApplicationContext(), "management")) {
			// actuator's own port (probes, Prometheus): never routed, never public, closed by the NetworkPolicy
			return chain.filter(exchange);
		}
		boolean spoofed = exchange.getRequest()
			.getHeaders()
			.headerNames()
			.stream()
			.anyMatch(EdgeAuthFilter::isIdentityHeader);
		ServerWebExchange clean = spoofed ? strip(exchange) : exchange;
		if (isPublic(exchange.getRequest().getPath().pathWithinApplication())) {
			return chain.filter(clean);
		}
		return bearer.convert(exchange)
			.cast(BearerTokenAuthenticationToken.class)
			.flatMap(token -> verifier.verify(token.getToken()))
			.map(identity -> {
				clean.getAttributes().put(USER_ATTRIBUTE, identity.user());
				clean.getAttributes().put(OFFICE_ATTRIBUTE, identity.office());
				return identity;
			})
			.hasElement()
			.onErrorResume(OAuth2AuthenticationException.class,
					e -> unauthorized(exchange, "The bearer token is malformed").thenReturn(false))
			.onErrorResume(BadJwtException.class,
					e -> unauthorized(exchange, "The bearer token is not valid: " + reason(e)).thenReturn(false))
			.onErrorResume(JwtException.class, e -> {
				log.warn("cannot verify bearer tokens: {}", e.getMessage());
				return Problems.write(exchange.getResponse(), HttpStatus.SERVICE_UNAVAILABLE, "auth-unavailable",
						"The token keys cannot be had right now; try again shortly",
						exchange.getRequest().getPath().value())
					.thenReturn(false);
			})
			.flatMap(verified -> {
				if (verified) {
					return chain.filter(clean);
				}
				return exchange.getResponse().isCommitted() ? Mono.empty()
						: unauthorized(exchange, "A bearer token is required");
			});
	}

	/** What the validators said, without the decoder's wrapping ("An error occurred while attempting to decode"). */
	private static String reason(BadJwtException e) {
		if (e instanceof JwtValidationException invalid && !invalid.getErrors().isEmpty()) {
			return invalid.getErrors().iterator().next().getDescription();
		}
		String message = e.getMessage() == null ? "" : e.getMessage();
		int colon = message.indexOf(": ");
		return colon < 0 ? message : message.substring(colon + 2);
	}

	private boolean isPublic(PathContainer path) {
		for (PathPattern pattern : publicPaths) {
			if (pattern.matches(path)) {
				return true;
			}
		}
		return false;
	}

	private static ServerWebExchange strip(ServerWebExchange exchange) {
		return exchange.mutate().request(r -> r.headers(h -> {
			for (String name : List.copyOf(h.headerNames())) {
				if (isIdentityHeader(name)) {
					h.remove(name);
				}
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
