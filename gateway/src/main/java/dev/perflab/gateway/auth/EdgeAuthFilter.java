package dev.perflab.gateway.auth;

import java.net.InetSocketAddress;
import java.time.Duration;
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
 * a short-lived identity token signed by the gateway. Services trust only that token. A client address whose
 * refused tokens have spent its {@link FailedTokenBudget} gets 429 for any token not already known valid, before it
 * is parsed or verified.
 */
public class EdgeAuthFilter implements WebFilter, Ordered {

	private static final Logger log = LoggerFactory.getLogger(EdgeAuthFilter.class);

	public static final String USER_ATTRIBUTE = EdgeAuthFilter.class.getName() + ".user";

	public static final String OFFICE_ATTRIBUTE = EdgeAuthFilter.class.getName() + ".office";

	private final EdgeTokenVerifier verifier;

	private final List<PathPattern> publicPaths;

	private final ServerBearerTokenAuthenticationConverter bearer = new ServerBearerTokenAuthenticationConverter();

	private final FailedTokenBudget failedTokens;

	EdgeAuthFilter(EdgeTokenVerifier verifier, List<String> publicPaths, FailedTokenBudget failedTokens) {
		this.verifier = verifier;
		this.failedTokens = failedTokens;
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
			.flatMap(token -> verify(token.getToken(), exchange))
			.map(identity -> {
				clean.getAttributes().put(USER_ATTRIBUTE, identity.user());
				clean.getAttributes().put(OFFICE_ATTRIBUTE, identity.office());
				return identity;
			})
			.hasElement()
			.onErrorResume(FailedTokensSpent.class,
					e -> tooManyFailedTokens(exchange, e.retryAfter).thenReturn(false))
			.onErrorResume(OAuth2AuthenticationException.class, e -> {
				failedTokens.charge(clientAddress(exchange));
				return unauthorized(exchange, "The bearer token is malformed").thenReturn(false);
			})
			.onErrorResume(BadJwtException.class, e -> {
				failedTokens.charge(clientAddress(exchange));
				return unauthorized(exchange, "The bearer token is not valid: " + reason(e)).thenReturn(false);
			})
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

	/** A token known valid passes; any other is looked at only while the client has failed-token budget left. */
	private Mono<EdgeTokenVerifier.Identity> verify(String token, ServerWebExchange exchange) {
		EdgeTokenVerifier.Identity known = verifier.remembered(token);
		if (known != null) {
			return Mono.just(known);
		}
		Duration wait = failedTokens.refusal(clientAddress(exchange));
		return wait != null ? Mono.error(new FailedTokensSpent(wait)) : verifier.verify(token);
	}

	/** The peer, or the client a trusted proxy named (dev.perflab.gateway.forwarded): never a header read here. */
	private static String clientAddress(ServerWebExchange exchange) {
		InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
		return remote == null || remote.getAddress() == null ? "unknown" : remote.getAddress().getHostAddress();
	}

	private static Mono<Void> tooManyFailedTokens(ServerWebExchange exchange, Duration wait) {
		long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
		exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
		return Problems.write(exchange.getResponse(), HttpStatus.TOO_MANY_REQUESTS, "too-many-failed-tokens",
				"Too many invalid bearer tokens from this address; retry in " + seconds + " s",
				exchange.getRequest().getPath().value());
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

	/** The client's failed-token budget is spent: its token is not looked at. */
	private static final class FailedTokensSpent extends RuntimeException {

		private final Duration retryAfter;

		FailedTokensSpent(Duration retryAfter) {
			super(null, null, false, false);
			this.retryAfter = retryAfter;
		}
	}
}
