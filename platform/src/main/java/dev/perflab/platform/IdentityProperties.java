package dev.perflab.platform;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who this service trusts and, when it calls other services itself, how it signs.
 *
 * @param audience the name tokens must be addressed to (aud); empty: {@code spring.application.name}
 * @param trusted issuer → PEM location (PUBLIC KEY or CERTIFICATE blocks; every key listed is trusted, so a rotation
 * lists two), e.g. {@code perflab-gateway: file:/etc/perflab/identity/gateway.pem}
 * @param clockSkew how far exp and nbf may be off between signer and verifier
 * @param signingKey PEM location of this service's own private key (PKCS#8 or PKCS#1); empty: it signs nothing
 * @param issuer the issuer this service signs as; empty: {@code perflab-<spring.application.name>}
 * @param ttl lifetime of the tokens this service signs
 */
@ConfigurationProperties("perflab.identity")
public record IdentityProperties(@Nullable String audience, @DefaultValue Map<String, String> trusted,
		@DefaultValue("10s") Duration clockSkew, @Nullable String signingKey, @Nullable String issuer,
		@DefaultValue("60s") Duration ttl) {
}
