package dev.perflab.identity;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

/**
 * Signs identity tokens (RS256, typ {@value Identity#TYPE}, kid = the key's RFC 7638 thumbprint). An RSA-2048
 * signature costs about a millisecond and the gateway asks for one on every request, so a token is kept per
 * (subject, office, audience) and handed out again until less than half its lifetime is left: a verifier always gets
 * at least ttl/2 of validity, and a busy user costs one signature per ttl/2, not one per request.
 */
public final class IdentitySigner {

	private final String issuer;

	private final Duration ttl;

	private final Clock clock;

	private final String kid;

	private final NimbusJwtEncoder encoder;

	private final Cache<Key, Signed> tokens = Caffeine.newBuilder().maximumSize(100_000).build();

	public IdentitySigner(String issuer, RSAPrivateCrtKey key, Duration ttl, Clock clock) {
		if (ttl.compareTo(Duration.ofSeconds(2)) < 0) {
			throw new IllegalArgumentException("identity token ttl must be at least 2 s, was " + ttl);
		}
		this.issuer = issuer;
		this.ttl = ttl;
		this.clock = clock;
		RSAPublicKey publicKey = IdentityKeys.publicKey(key);
		this.kid = IdentityKeys.kid(publicKey);
		this.encoder = NimbusJwtEncoder.withKeyPair(publicKey, key)
			.algorithm(SignatureAlgorithm.RS256)
			.jwkPostProcessor(jwk -> jwk.keyID(kid))
			.build();
	}

	public String issuer() {
		return issuer;
	}

	/** The key id this signer puts in every token. */
	public String kid() {
		return kid;
	}

	/**
	 * @param subject the user id, or the calling service's name
	 * @param office the user's office; null for a service's own calls
	 * @param audience the service the token is for
	 */
	public String sign(String subject, @Nullable String office, String audience) {
		Key key = new Key(subject, office, audience);
		Instant now = clock.instant();
		Signed cached = tokens.getIfPresent(key);
		if (cached != null && now.isBefore(cached.renewAt())) {
			return cached.token();
		}
		Signed fresh = signNow(key, now);
		tokens.put(key, fresh);
		return fresh.token();
	}

	/**
	 * A token for one request only, never cached: its method, path and the SHA-256 of its body are signed with it
	 * ({@link Identity#METHOD}), so whoever captures it can send that request again and nothing else. One RSA
	 * signature per call: for service-to-service calls (mail's outbox pushes to send), not for every user request.
	 */
	public String signRequest(String subject, String audience, String method, String path, byte[] body) {
		JwtClaimsSet claims = claims(new Key(subject, null, audience), clock.instant())
			.claim(Identity.METHOD, method)
			.claim(Identity.PATH, path)
			.claim(Identity.BODY_DIGEST, digest(body))
			.build();
		return encoder.encode(JwtEncoderParameters.from(header(), claims)).getTokenValue();
	}

	/** The base64url (no padding) SHA-256 of a request body, as {@link Identity#BODY_DIGEST} carries it. */
	public static String digest(byte[] body) {
		try {
			return Base64.getUrlEncoder().withoutPadding()
				.encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException("every JDK has SHA-256", e);
		}
	}

	private JwtClaimsSet.Builder claims(Key key, Instant now) {
		Instant issuedAt = now.truncatedTo(ChronoUnit.SECONDS);
		JwtClaimsSet.Builder claims = JwtClaimsSet.builder()
			.issuer(issuer)
			.subject(key.subject())
			.audience(List.of(key.audience()))
			.issuedAt(issuedAt)
			.expiresAt(issuedAt.plus(ttl));
		if (key.office() != null) {
			claims.claim(Identity.OFFICE, key.office());
		}
		return claims;
	}

	private JwsHeader header() {
		return JwsHeader.with(SignatureAlgorithm.RS256).type(Identity.TYPE).keyId(kid).build();
	}

	private Signed signNow(Key key, Instant now) {
		String token = encoder.encode(JwtEncoderParameters.from(header(), claims(key, now).build())).getTokenValue();
		return new Signed(token, now.truncatedTo(ChronoUnit.SECONDS).plus(ttl.dividedBy(2)));
	}

	private record Key(String subject, @Nullable String office, String audience) {
	}

	private record Signed(String token, Instant renewAt) {
	}
}
