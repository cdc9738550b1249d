package dev.perflab.gateway.auth;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
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
import dev.perflab.identity.TestKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The edge decoder against an identity provider's JWKS endpoint served over real HTTP. */
class EdgeJwtDecodersTest {

	private static final String ISSUER = "https://idp.test";

	@Test
	void verifiesByKidFromAJwksAndRefetchesWhenANewKeyIsPublished() throws Exception {
		KeyPair first = TestKeys.keyPair();
		KeyPair second = TestKeys.keyPair();
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
			NimbusReactiveJwtDecoder decoder = EdgeJwtDecoders.create(
					settings("http://127.0.0.1:" + idp.getAddress().getPort() + "/jwks", "", Duration.ofMillis(300)), null);
			Jwt jwt = decoder.decode(token(first, "k1", "alice")).block();
			assertThat(jwt.getSubject()).isEqualTo("alice");

			// a signing key the provider has not published: refused
			assertThatThrownBy(() -> decoder.decode(token(second, "k2", "bob")).block())
				.isInstanceOf(BadJwtException.class);

			// the provider rotates: both keys published; once the refetch interval has passed (k2 was just found
			// missing) the unknown kid makes the decoder fetch again
			published[0] = new JWKSet(List.of(rsa(first, "k1"), rsa(second, "k2")));
			int before = fetches.get();
			// a wait for time: the 300 ms refetch interval passes on the wall clock, no event marks it; a refusal
			// (BadJwtException) is not retried, it fails the test as before
			await().pollDelay(Duration.ofMillis(400))
				.atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(decoder.decode(token(second, "k2", "bob")).block().getSubject())
					.isEqualTo("bob"));
			assertThat(fetches.get()).isGreaterThan(before);
		}
		finally {
			idp.stop(0);
		}
	}

	@Test
	void randomKidsFetchTheJwksAtMostTwicePerRefetchInterval() throws Exception {
		KeyPair keys = TestKeys.keyPair();
		AtomicInteger fetches = new AtomicInteger();
		HttpServer idp = jwks(fetches, new JWKSet(rsa(keys, "k1")));
		try {
			NimbusReactiveJwtDecoder decoder = EdgeJwtDecoders.create(
					settings("http://127.0.0.1:" + idp.getAddress().getPort() + "/jwks", "", Duration.ofSeconds(30)), null);
			assertThat(decoder.decode(token(keys, "k1", "alice")).block().getSubject()).isEqualTo("alice");
			for (int i = 0; i < 200; i++) {
				String kid = UUID.randomUUID().toString();
				assertThatThrownBy(() -> decoder.decode(token(keys, kid, "mallory")).block())
					.isInstanceOf(BadJwtException.class);
			}
			// the first load, then at most two refetches in the interval (Nimbus's rate limit), whatever the kids
			assertThat(fetches.get()).as("JWKS fetches for 200 unknown kids").isBetween(1, 3);
			assertThat(decoder.decode(token(keys, "k1", "bob")).block().getSubject()).isEqualTo("bob");
		}
		finally {
			idp.stop(0);
		}
	}

	@Test
	void anUnknownKidIsRememberedAndRefusedWithoutAFetch() throws Exception {
		KeyPair keys = TestKeys.keyPair();
		AtomicInteger fetches = new AtomicInteger();
		HttpServer idp = jwks(fetches, new JWKSet(rsa(keys, "k1")));
		try {
			NimbusReactiveJwtDecoder decoder = EdgeJwtDecoders.create(
					settings("http://127.0.0.1:" + idp.getAddress().getPort() + "/jwks", "", Duration.ofSeconds(30)), null);
			String unknown = token(keys, "gone", "mallory");
			assertThatThrownBy(() -> decoder.decode(unknown).block()).isInstanceOf(BadJwtException.class);
			int after = fetches.get();
			for (int i = 0; i < 50; i++) {
				assertThatThrownBy(() -> decoder.decode(unknown).block()).isInstanceOf(BadJwtException.class);
			}
			assertThat(fetches.get()).isEqualTo(after);
		}
		finally {
			idp.stop(0);
		}
	}

	/** An identity provider's JWKS endpoint over real HTTP, counting its fetches. */
	private static HttpServer jwks(AtomicInteger fetches, JWKSet published) throws Exception {
		HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		idp.createContext("/jwks", exchange -> {
			fetches.incrementAndGet();
			byte[] body = published.toString(true).getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		idp.start();
		return idp;
	}

	@Test
	void aJwksThatCannotBeReachedIsNotABadToken() throws Exception {
		EdgeTokenVerifier verifier = new EdgeTokenVerifier(
				EdgeJwtDecoders.create(settings("http://127.0.0.1:1/jwks", ""), null), "office", 10, Clock.systemUTC());
		// the edge answers 503 for this, never 401: the caller's token may be fine
		assertThatThrownBy(() -> verifier.verify(token(TestKeys.keyPair(), "k1", "alice")).block())
			.isInstanceOf(JwtException.class)
			.isNotInstanceOf(BadJwtException.class);
		// nor once the refetches of the interval are spent: still no keys at all, still not the caller's fault
		for (int i = 0; i < 3; i++) {
			assertThatThrownBy(() -> verifier.verify(token(TestKeys.keyPair(), "k" + System.nanoTime(), "alice")).block())
				.isInstanceOf(JwtException.class)
				.isNotInstanceOf(BadJwtException.class);
		}
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
		return settings(jwks, pem, Duration.ofSeconds(30));
	}

	private static GatewayProperties.Jwt settings(String jwks, String pem, Duration refetchInterval) {
		return new GatewayProperties.Jwt(ISSUER, "perflab", jwks, pem, List.of("JWT", "at+jwt"), "office",
				Duration.ofSeconds(30), 1000, refetchInterval, Duration.ofMinutes(5), Duration.ofHours(1));
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

}
