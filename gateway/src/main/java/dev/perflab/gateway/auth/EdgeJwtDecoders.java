package dev.perflab.gateway.auth;

import java.util.Comparator;
import java.util.List;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import reactor.core.publisher.Flux;

import org.springframework.core.io.Resource;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtAudienceValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;
import org.springframework.util.StringUtils;

import dev.perflab.gateway.GatewayProperties;
import dev.perflab.identity.IdentityKeys;

/**
 * The edge's token decoder, built from Spring Security's resource server: RS256 only; keys from a JWKS URI (the
 * identity provider's, fetched again for an unknown {@code kid} at most twice per {@code jwks-refetch-interval}, see
 * {@link JwksKeys}) or from a PEM file holding one or more public keys or certificates (two during a rotation: a token
 * verifies with either); then issuer, audience, {@code typ}, expiry and not-before (with a small clock skew), and a
 * subject and office in canonical form ({@link CanonicalIdentity}).
 */
public final class EdgeJwtDecoders {

	private EdgeJwtDecoders() {
	}

	public static NimbusReactiveJwtDecoder create(GatewayProperties.Jwt settings, Resource publicKeys) {
		boolean jwks = StringUtils.hasText(settings.jwkSetUri());
		boolean pem = StringUtils.hasText(settings.publicKey());
		if (jwks == pem) {
			throw new IllegalStateException("set exactly one of perflab.gateway.jwt.jwk-set-uri (the identity "
					+ "provider's JWKS) and perflab.gateway.jwt.public-key (a PEM of one or more public keys); "
					+ "the local stack makes a PEM with scripts/lib/jwt.sh keys");
		}
		NimbusReactiveJwtDecoder decoder;
		if (jwks) {
			decoder = NimbusReactiveJwtDecoder.withJwkSource(new JwksKeys(settings.jwkSetUri(), settings.jwksRefetchInterval(),
					settings.jwksLifetime(), settings.jwksOutageTolerance()))
				.jwsAlgorithm(SignatureAlgorithm.RS256)
				.build();
		}
		else {
			List<RSAKey> keys = read(publicKeys);
			// PEM keys are anonymous, so a token's kid names none of them: every key is offered under the token's
			// kid and the signature decides (one or two keys; a key whose thumbprint is the kid goes first)
			decoder = NimbusReactiveJwtDecoder.withJwkSource(jwt -> Flux.fromIterable(candidates(keys, jwt.getHeader().getKeyID())))
				.jwsAlgorithm(SignatureAlgorithm.RS256)
				.build();
		}
		decoder.setJwtValidator(validator(settings));
		return decoder;
	}

	static OAuth2TokenValidator<Jwt> validator(GatewayProperties.Jwt settings) {
		JwtTimestampValidator timestamps = new JwtTimestampValidator(settings.clockSkew());
		timestamps.setAllowEmptyExpiryClaim(false);
		JwtTypeValidator types = new JwtTypeValidator(settings.types());
		types.setAllowEmpty(false);
		return new DelegatingOAuth2TokenValidator<>(List.of(timestamps, new JwtIssuerValidator(settings.issuer()),
				new JwtAudienceValidator(settings.audience()), types, CanonicalIdentity.subject(),
				CanonicalIdentity.office(settings.officeClaim())));
	}

	/** Every public key and certificate in the PEM, as JWKs (kid: the RFC 7638 thumbprint). */
	static List<RSAKey> read(Resource pem) {
		return IdentityKeys.publicKeys(pem)
			.stream()
			.map(key -> new RSAKey.Builder(key).keyID(IdentityKeys.kid(key)).build())
			.toList();
	}

	static List<JWK> candidates(List<RSAKey> keys, String kid) {
		if (kid == null) {
			return List.copyOf(keys);
		}
		return keys.stream()
			.sorted(Comparator.comparing(key -> !kid.equals(key.getKeyID())))
			.<JWK>map(key -> new RSAKey.Builder(key).keyID(kid).build())
			.toList();
	}
}
