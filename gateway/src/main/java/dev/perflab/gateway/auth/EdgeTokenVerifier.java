package dev.perflab.gateway.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

/**
 * Bearer tokens at the edge: decoded and validated by Spring Security's resource-server decoder (see
 * {@link EdgeJwtDecoders}), and remembered until they expire, so the RSA check and the validators run once per
 * token, not once per request. Only valid tokens are remembered.
 */
public class EdgeTokenVerifier {

	private final ReactiveJwtDecoder decoder;

	private final String officeClaim;

	private final Clock clock;

	private final Cache<String, Identity> verified;

	public EdgeTokenVerifier(ReactiveJwtDecoder decoder, String officeClaim, long maxEntries, Clock clock) {
		this.decoder = decoder;
		this.officeClaim = officeClaim;
		this.clock = clock;
		this.verified = Caffeine.newBuilder().maximumSize(maxEntries).expireAfter(new Expiry<String, Identity>() {
			@Override
			public long expireAfterCreate(String token, Identity identity, long now) {
				return Math.max(0, Duration.between(clock.instant(), identity.expiresAt()).toNanos());
			}

			@Override
			public long expireAfterUpdate(String token, Identity identity, long now, long current) {
				return current;
			}

			@Override
			public long expireAfterRead(String token, Identity identity, long now, long current) {
				return current;
			}
		}).build();
	}

	/**
	 * The verified caller. Fails with the decoder's {@code BadJwtException} (the token is not acceptable: 401) or
	 * another {@code JwtException} (the keys could not be had, e.g. the JWKS endpoint is down: 503).
	 */
	public Mono<Identity> verify(String token) {
		Identity known = remembered(token);
		if (known != null) {
			return Mono.just(known);
		}
		return decoder.decode(token)
			// the decoder says "Could not obtain the keys" (IllegalStateException) when the JWKS cannot be fetched
			.onErrorMap(e -> !(e instanceof JwtException), e -> new JwtException("cannot obtain the keys", e))
			.map(this::identity)
			.doOnNext(identity -> verified.put(token, identity));
	}

	/** The caller of a token verified before and not expired since; null otherwise. No verification work. */
	public @Nullable Identity remembered(String token) {
		Identity known = verified.getIfPresent(token);
		return known != null && known.expiresAt().isAfter(clock.instant()) ? known : null;
	}

	private Identity identity(Jwt jwt) {
		// sub, office and exp are present and sane: the decoder's validators refused the token otherwise
		return new Identity(jwt.getSubject(), String.valueOf(jwt.getClaims().get(officeClaim)), jwt.getExpiresAt());
	}

	public record Identity(String user, String office, Instant expiresAt) {
	}
}
