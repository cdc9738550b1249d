package dev.perflab.identity;

import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jwt.JWTParser;
import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.oauth2.jwt.JwtValidationException;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Verifies identity tokens addressed to one service. Each trusted issuer has its own keys (every key listed is
 * trusted, so a rotation lists old and new side by side) and its own decoder: RS256 only, typ
 * {@value Identity#TYPE}, {@code aud} containing this service, {@code exp}/{@code nbf} within the clock skew, and
 * for {@value Identity#GATEWAY} an office. The issuer named in the token only picks the decoder; the decoder checks
 * it again against the signature. A verified token is remembered until it expires (a request costs a map lookup,
 * not an RSA verification).
 */
public final class IdentityVerifier {

	private final String audience;

	private final Duration clockSkew;

	private final Clock clock;

	private final Map<String, NimbusJwtDecoder> decoders = new LinkedHashMap<>();

	private final Cache<String, VerifiedIdentity> verified = Caffeine.newBuilder().maximumSize(100_000).build();

	public IdentityVerifier(Map<String, List<RSAPublicKey>> trusted, String audience, Duration clockSkew, Clock clock) {
		if (trusted.isEmpty()) {
			throw new IllegalArgumentException("an identity verifier needs at least one trusted issuer");
		}
		this.audience = audience;
		this.clockSkew = clockSkew;
		this.clock = clock;
		trusted.forEach((issuer, keys) -> decoders.put(issuer, decoder(issuer, keys)));
	}

	public String audience() {
		return audience;
	}

	/** @throws InvalidIdentityException when the token proves nothing; its message says why */
	public VerifiedIdentity verify(@Nullable String token) {
		if (token == null || token.isBlank()) {
			throw new InvalidIdentityException("no token");
		}
		Instant now = clock.instant();
		VerifiedIdentity known = verified.getIfPresent(token);
		if (known != null) {
			if (!now.isAfter(known.expiresAt().plus(clockSkew))) {
				return known;
			}
			verified.invalidate(token);
		}
		String issuer = unverifiedIssuer(token);
		NimbusJwtDecoder decoder = decoders.get(issuer);
		if (decoder == null) {
			throw new InvalidIdentityException("unknown issuer " + printable(issuer) + " (trusted: "
					+ String.join(", ", decoders.keySet()) + ")");
		}
		Jwt jwt = decode(decoder, token);
		VerifiedIdentity identity = new VerifiedIdentity(issuer, jwt.getSubject(), jwt.getClaimAsString(Identity.OFFICE),
				jwt.getExpiresAt(), request(jwt));
		verified.put(token, identity);
		return identity;
	}

	/** The request a bound token names, all three claims or none (a token with some of them is refused). */
	private static VerifiedIdentity.@Nullable Request request(Jwt jwt) {
		String method = jwt.getClaimAsString(Identity.METHOD);
		String path = jwt.getClaimAsString(Identity.PATH);
		String digest = jwt.getClaimAsString(Identity.BODY_DIGEST);
		if (method == null && path == null && digest == null) {
			return null;
		}
		if (method == null || path == null || digest == null) {
			throw new InvalidIdentityException("a token bound to a request names its method, path and body digest ("
					+ Identity.METHOD + ", " + Identity.PATH + ", " + Identity.BODY_DIGEST + ")");
		}
		return new VerifiedIdentity.Request(method, path, digest);
	}

	private static Jwt decode(NimbusJwtDecoder decoder, String token) {
		try {
			return decoder.decode(token);
		}
		catch (JwtValidationException e) {
			throw new InvalidIdentityException(e.getErrors().stream().map(OAuth2Error::getDescription)
				.collect(Collectors.joining("; ")), e);
		}
		catch (BadJwtException e) {
			String message = String.valueOf(e.getMessage());
			throw new InvalidIdentityException(message.contains("Signed JWT rejected")
					? "bad signature (not RS256 by a trusted key of this issuer): " + message : message, e);
		}
		catch (JwtException e) {
			throw new InvalidIdentityException(String.valueOf(e.getMessage()), e);
		}
	}

	private static String unverifiedIssuer(String token) {
		try {
			String issuer = JWTParser.parse(token).getJWTClaimsSet().getIssuer();
			if (issuer == null) {
				throw new InvalidIdentityException("the token names no issuer (iss)");
			}
			return issuer;
		}
		catch (ParseException | RuntimeException e) {
			if (e instanceof InvalidIdentityException invalid) {
				throw invalid;
			}
			throw new InvalidIdentityException("malformed token: " + e.getMessage(), e);
		}
	}

	private NimbusJwtDecoder decoder(String issuer, List<RSAPublicKey> keys) {
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("no key trusted for issuer " + issuer);
		}
		List<JWK> jwks = keys.stream().map(k -> (JWK) new RSAKey.Builder(k).keyID(IdentityKeys.kid(k)).build()).toList();
		NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(new ImmutableJWKSet<>(new JWKSet(jwks)))
			.jwsAlgorithm(SignatureAlgorithm.RS256)
			.build();
		JwtTimestampValidator timestamps = new JwtTimestampValidator(clockSkew);
		timestamps.setClock(clock);
		// a token without exp would be valid forever (and stay in the cache forever)
		timestamps.setAllowEmptyExpiryClaim(false);
		List<OAuth2TokenValidator<Jwt>> validators = new ArrayList<>(List.of(timestamps,
				new JwtTypeValidator(Identity.TYPE), new JwtIssuerValidator(issuer), new JwtAudienceValidator(audience),
				new JwtClaimValidator<String>("sub", sub -> sub != null && !sub.isBlank())));
		if (Identity.GATEWAY.equals(issuer)) {
			validators.add(new JwtClaimValidator<Object>(Identity.OFFICE,
					office -> office instanceof String s && !s.isBlank()));
		}
		decoder.setJwtValidator(JwtValidators.createDefaultWithValidators(validators));
		return decoder;
	}

	private static String printable(String value) {
		String cut = value.length() > 64 ? value.substring(0, 64) + "…" : value;
		return "\"" + cut.replaceAll("\\p{Cntrl}", "?") + "\"";
	}
}
