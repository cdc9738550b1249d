package dev.perflab.gateway.auth;

import java.net.MalformedURLException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.SignedJWT;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The identity provider's keys, from its JWKS URI, for the edge decoder. Spring Security's own JWKS source fetched
 * the JWKS again for every token whose {@code kid} it did not know, so a client sending random kids made the
 * gateway fetch once per request. Here Nimbus's {@link JWKSourceBuilder} keeps the set ({@code jwks-lifetime}, then
 * fetched again; the last good set is kept while the provider cannot be reached, for {@code jwks-outage-tolerance}
 * after the last good fetch, so that a revoked key is not trusted forever) and lets an unknown kid fetch it at most
 * twice per {@code refetchInterval}; a kid still unknown after a fetch is remembered for that interval and refused
 * without asking the source at all. An unknown kid is a bad token (401); a JWKS that could never be fetched is not
 * (the decoder's error becomes the edge's 503).
 * <p>
 * Nimbus's source blocks while it fetches, so it is asked on the bounded elastic scheduler, never on an event loop.
 */
final class JwksKeys implements Function<SignedJWT, Flux<JWK>> {

	private final JWKSource<SecurityContext> source;

	private final Cache<String, Boolean> unknownKids;

	private volatile boolean loaded;

	JwksKeys(String jwkSetUri, Duration refetchInterval, Duration lifetime, Duration outageTolerance) {
		long ttl = lifetime.toMillis();
		long refreshTimeout = Math.min(JWKSourceBuilder.DEFAULT_CACHE_REFRESH_TIMEOUT, ttl / 4);
		try {
			this.source = JWKSourceBuilder.create(URI.create(jwkSetUri).toURL())
				.cache(ttl, refreshTimeout)
				// fetched again before it expires, so no request waits for the fetch, where the lifetime leaves room
				.refreshAheadCache(ttl >= JWKSourceBuilder.DEFAULT_REFRESH_AHEAD_TIME + refreshTimeout)
				.rateLimited(refetchInterval.toMillis())
				.outageTolerant(outageTolerance.toMillis())
				.build();
		}
		catch (MalformedURLException | IllegalArgumentException e) {
			throw new IllegalStateException("perflab.gateway.jwt.jwk-set-uri is not a URL: " + jwkSetUri, e);
		}
		this.unknownKids = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(refetchInterval).build();
	}

	@Override
	public Flux<JWK> apply(SignedJWT jwt) {
		String kid = jwt.getHeader().getKeyID();
		if (kid != null && unknownKids.getIfPresent(kid) != null) {
			return Flux.empty();
		}
		return Mono.fromCallable(() -> select(jwt.getHeader()))
			.subscribeOn(Schedulers.boundedElastic())
			.flatMapIterable(keys -> keys);
	}

	private List<JWK> select(JWSHeader header) throws KeySourceException {
		JWKMatcher matcher = JWKMatcher.forJWSHeader(header);
		if (matcher == null) {
			return List.of();
		}
		List<JWK> keys;
		try {
			keys = source.get(new JWKSelector(matcher), null);
		}
		catch (RateLimitReachedException e) {
			if (!loaded) {
				throw e;
			}
			// fetched recently: the kid is not known now, and is not remembered, so that it may fetch once more later
			return List.of();
		}
		loaded = true;
		if (keys.isEmpty() && header.getKeyID() != null) {
			unknownKids.put(header.getKeyID(), Boolean.TRUE);
		}
		return keys;
	}
}
