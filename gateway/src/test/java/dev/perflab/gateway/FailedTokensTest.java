package dev.perflab.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

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

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.identity.TestKeys;

import static dev.perflab.gateway.GatewayTestSupport.from;
import static dev.perflab.gateway.GatewayTestSupport.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bad tokens cannot make the gateway work without limit: an identity provider's JWKS endpoint over real HTTP counts
 * the gateway's fetches under tokens with random {@code kid}s, and a client address that has spent its failed-token
 * budget is answered 429 before its next token is looked at. Each test sends from loopback addresses of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "perflab.gateway.rate-limit.failed-tokens.burst-capacity=5",
				"perflab.gateway.rate-limit.failed-tokens.replenish-rate=0.05", "perflab.gateway.warm-up.requests=0",
				"perflab.gateway.jwt.jwks-refetch-interval=" + FailedTokensTest.REFETCH_MILLIS + "ms" })
class FailedTokensTest {

	static final long REFETCH_MILLIS = 2000;

	static final KeyPair KEYS = TestKeys.keyPair();

	static final AtomicReference<JWKSet> PUBLISHED = new AtomicReference<>(new JWKSet(rsa(KEYS, "k1")));

	static final AtomicInteger FETCHES = new AtomicInteger();

	static final HttpServer IDP = idp();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void wiring(DynamicPropertyRegistry registry) throws IOException {
		registry.add("perflab.gateway.services.shortener", () -> "http://127.0.0.1:" + GatewayTestSupport.UPSTREAM.port());
		registry.add("perflab.gateway.jwt.issuer", () -> Tokens.ISSUER);
		registry.add("perflab.gateway.jwt.jwk-set-uri", () -> "http://127.0.0.1:" + IDP.getAddress().getPort() + "/jwks");
		String identityKey = "file:" + Tokens.identityKeyPem();
		registry.add("perflab.identity.signing-key", () -> identityKey);
		registry.add("perflab.gateway.routes.dir", GatewayTestSupport.ROUTES::toString);
	}

	@Test
	void randomKidsDoNotFetchTheJwksOnEveryRequest() {
		assertThat(status(from("127.0.0.30"), token(KEYS, "k1", "alice"))).isEqualTo(200);
		int before = FETCHES.get();
		long start = System.nanoTime();
		// 60 tokens with kids nobody published, from 20 addresses (3 each: within their failed-token budget)
		List<HttpClient> clients = IntStream.range(100, 120).mapToObj(n -> from("127.0.0." + n)).toList();
		for (int i = 0; i < 60; i++) {
			assertThat(status(clients.get(i % 20), token(KEYS, UUID.randomUUID().toString(), "mallory"))).isEqualTo(401);
		}
		long intervals = (System.nanoTime() - start) / 1_000_000 / REFETCH_MILLIS + 1;
		assertThat(FETCHES.get() - before).as("JWKS fetches for 60 unknown kids in %d refetch interval(s)", intervals)
			.isLessThanOrEqualTo((int) (2 * intervals))
			.isLessThan(10);
	}

	@Test
	void anAddressThatSpentItsBudgetIsRefusedBeforeItsTokenIsLookedAt() {
		HttpClient mallory = from("127.0.0.40");
		String forged = token(TestKeys.keyPair(), "k1", "mallory");
		for (int i = 0; i < 5; i++) {
			assertThat(status(mallory, forged)).isEqualTo(401);
		}
		HttpResponse<String> refused = send(mallory, get("/v1/short-links/budget").header("Authorization", "Bearer " + forged));
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
				seconds -> assertThat(Integer.parseInt(seconds)).isPositive());
		assertThat(refused.body()).contains("\"type\":\"https://perflab.dev/problems/too-many-failed-tokens\"");

		// a key published since: a token signed with it would make the gateway fetch the JWKS, if it were looked at
		KeyPair next = TestKeys.keyPair();
		PUBLISHED.set(new JWKSet(List.of(rsa(KEYS, "k1"), rsa(next, "k2"))));
		String fresh = token(next, "k2", "carol");
		int before = FETCHES.get();
		assertThat(status(mallory, fresh)).as("a new token from the refused address").isEqualTo(429);
		assertThat(FETCHES.get()).as("no verification work for it").isEqualTo(before);

		// the budget is the address's, not the token's; a token once verified passes from anywhere (k2 is fetched
		// once the refetch interval allows: another test's unknown kids may have spent this one's refetches)
		// a wait for time: the refetch interval passes on the wall clock, no event marks it
		await().pollDelay(Duration.ofMillis(REFETCH_MILLIS + 200))
			.pollInterval(Duration.ofMillis(500))
			.atMost(Duration.ofMillis(4 * REFETCH_MILLIS))
			.untilAsserted(() -> assertThat(status(from("127.0.0.41"), fresh)).isEqualTo(200));
		assertThat(status(mallory, fresh)).as("a token known valid").isEqualTo(200);
	}

	private int status(HttpClient client, String token) {
		return send(client, get("/v1/short-links/budget").header("Authorization", "Bearer " + token)).statusCode();
	}

	private HttpRequest.Builder get(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
	}

	static String token(KeyPair keys, String kid, String subject) {
		Instant now = Instant.now();
		try {
			SignedJWT jwt = new SignedJWT(
					new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID(kid).build(),
					new JWTClaimsSet.Builder().issuer(Tokens.ISSUER)
						.audience(Tokens.AUDIENCE)
						.subject(subject)
						.claim("office", "1")
						.expirationTime(Date.from(now.plusSeconds(600)))
						.build());
			jwt.sign(new RSASSASigner((RSAPrivateKey) keys.getPrivate()));
			return jwt.serialize();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}

	private static HttpServer idp() {
		try {
			HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			idp.createContext("/jwks", exchange -> {
				FETCHES.incrementAndGet();
				byte[] body = PUBLISHED.get().toString(true).getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, body.length);
				exchange.getResponseBody().write(body);
				exchange.close();
			});
			idp.start();
			return idp;
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}

	private static RSAKey rsa(KeyPair keys, String kid) {
		return new RSAKey.Builder((RSAPublicKey) keys.getPublic()).keyID(kid).build();
	}

}
