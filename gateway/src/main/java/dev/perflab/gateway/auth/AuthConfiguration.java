package dev.perflab.gateway.auth;

import java.time.Clock;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

import dev.perflab.gateway.GatewayProperties;
import dev.perflab.identity.IdentityKeys;
import dev.perflab.identity.IdentitySigner;

/** The edge's bearer-token check and the identity it hands the services. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuthConfiguration.IdentitySigning.class)
class AuthConfiguration {

	@Bean
	ReactiveJwtDecoder edgeJwtDecoder(GatewayProperties properties, ResourceLoader resources) {
		GatewayProperties.Jwt jwt = properties.jwt();
		return EdgeJwtDecoders.create(jwt, jwt.publicKey().isBlank() ? null : resources.getResource(jwt.publicKey()));
	}

	@Bean
	EdgeTokenVerifier edgeTokenVerifier(ReactiveJwtDecoder edgeJwtDecoder, GatewayProperties properties) {
		return new EdgeTokenVerifier(edgeJwtDecoder, properties.jwt().officeClaim(), properties.jwt().cacheSize(),
				Clock.systemUTC());
	}

	@Bean
	EdgeAuthFilter edgeAuthFilter(EdgeTokenVerifier verifier, GatewayProperties properties) {
		return new EdgeAuthFilter(verifier, properties.publicPaths(),
				new FailedTokenBudget(properties.rateLimit().failedTokens()));
	}

	@Bean
	IdentitySigner gatewayIdentitySigner(IdentitySigning settings, ResourceLoader resources) {
		if (settings.signingKey().isBlank()) {
			throw new IllegalStateException("perflab.identity.signing-key is not set: the PEM of the RSA key the gateway "
					+ "signs the services' identity tokens with (scripts/lib/jwt.sh keys makes a dev one; the chart mounts it)");
		}
		return new IdentitySigner(settings.issuer(), IdentityKeys.privateKey(resources.getResource(settings.signingKey())),
				settings.ttl(), Clock.systemUTC());
	}

	@Bean
	IdentityRelayFilter identityRelayFilter(IdentitySigner gatewayIdentitySigner) {
		return new IdentityRelayFilter(gatewayIdentitySigner);
	}

	/**
	 * The identity the gateway hands each service (see {@code dev.perflab.identity}).
	 * @param issuer the {@code iss} of the gateway's identity tokens; services trust it by this name
	 * @param signingKey PEM resource of the gateway's RSA private key (PKCS#8 or PKCS#1); application.yaml points
	 * it at the dev key under PERFLAB_IDENTITY_DIR
	 * @param ttl lifetime of an identity token
	 */
	@ConfigurationProperties("perflab.identity")
	record IdentitySigning(@DefaultValue("perflab-gateway") String issuer,
			@DefaultValue("") String signingKey,
			@DefaultValue("60s") Duration ttl) {
	}
}
