package dev.perflab.gateway.auth;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;

import dev.perflab.gateway.GatewayProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The edge decoder against an identity provider's JWKS endpoint served over real HTTP. */
class EdgeJwtDecodersTest {

	private static final String ISSUER = "https://idp.test";

	@Test
	void verifiesByKidFromAJwksAndRefetchesWhenANewKeyIsPublished() throws Exception {
		KeyPair first = generate();
		KeyPair second = generate();
		AtomicInteger fetches = new AtomicInteger();
		JWKSet[] published = { new JWKSet(rsa(first, "k1")) };
		HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		idp.createContext("/jwks", exchange -> {
			fetches.incrementAndGet();
			byte[] body = published[0].toString(true).getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		idp.start();
		try {
			NimbusReactiveJwtDecoder decoder = EdgeJwtDecoders
				.create(settings("http://127.0.0.1:" + idp.getAddress().getPort() + "/jwks", ""), null);
			Jwt jwt = decoder.decode(token(first, "k1", "alice")).block();
			assertThat(jwt.getSubject()).isEqualTo("alice");

			// a signing key the provider has not published: refused
			assertThatThrownBy(() -> decoder.decode(token(second, "k2", "bob")).block())
				.isInstanceOf(BadJwtException.class);

			// the provider rotates: both keys published, the unknown kid makes the decoder fetch again
			published[0] = new JWKSet(List.of(rsa(first, "k1"), rsa(second, "k2")));
			int before = fetches.get();
			assertThat(decoder.decode(token(second, "k2", "bob")).block().getSubject()).isEqualTo("bob");
			assertThat(fetches.get()).isGreaterThan(before);
		}
		finally {
			idp.stop(0);
		}
	}

	@Test
	void aJwksThatCannotBeReachedIsNotABadToken() throws Exception {
		EdgeTokenVerifier verifier = new EdgeTokenVerifier(
				EdgeJwtDecoders.create(settings("http://127.0.0.1:1/jwks", ""), null), "office", 10, Clock.systemUTC());
		// the edge answers 503 for this, never 401: the caller's token may be fine
		assertThatThrownBy(() -> verifier.verify(token(generate(), "k1", "alice")).block())
			.isInstanceOf(JwtException.class)
			.isNotInstanceOf(BadJwtException.class);
	}

	@Test
	void exactlyOneKeySourceIsConfigured() {
		assertThatThrownBy(() -> EdgeJwtDecoders.create(settings("", ""), null)).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("exactly one");
		assertThatThrownBy(() -> EdgeJwtDecoders.create(settings("http://idp/jwks", "file:/x.pem"), null))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("exactly one");
	}

	private static GatewayProperties.Jwt settings(String jwks, String pem) {
		return new GatewayProperties.Jwt(ISSUER, "perflab", jwks, pem, List.of("JWT", "at+jwt"), "office",
				Duration.ofSeconds(30), 1000);
	}

	private static String token(KeyPair keys, String kid, String subject) throws Exception {
		Instant now = Instant.now();
		SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID(kid).build(),
				new JWTClaimsSet.Builder().issuer(ISSUER)
					.audience("perflab")
					.subject(subject)
					.claim("office", "1")
					.expirationTime(Date.from(now.plusSeconds(600)))
					.build());
		jwt.sign(new RSASSASigner((RSAPrivateKey) keys.getPrivate()));
		return jwt.serialize();
	}

	private static RSAKey rsa(KeyPair keys, String kid) {
		return new RSAKey.Builder((RSAPublicKey) keys.getPublic()).keyID(kid).build();
	}

	private static KeyPair generate() throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		return generator.generateKeyPair();
	}
}
