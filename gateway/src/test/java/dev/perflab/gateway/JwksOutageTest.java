package dev.perflab.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
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
 * While the identity provider cannot be reached, its last JWKS stays trusted for {@code jwks-outage-tolerance} after
 * the last good fetch, and no longer: a key the provider revoked meanwhile is not honoured forever. A real JWKS
 * endpoint over HTTP is stopped; new tokens (each subject a new one, so none is a token already verified) keep
 * passing within the tolerance and answer 503 after it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "perflab.gateway.warm-up.requests=0", "perflab.gateway.jwt.jwks-refetch-interval=200ms",
				"perflab.gateway.jwt.jwks-lifetime=1s",
				"perflab.gateway.jwt.jwks-outage-tolerance=" + JwksOutageTest.TOLERANCE_MILLIS + "ms" })
class JwksOutageTest {

	static final long TOLERANCE_MILLIS = 4000;

	static final KeyPair KEYS = TestKeys.keyPair();

	static final HttpServer IDP = idp();

	@LocalServerPort
	int port;

	private int subjects;

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
	void theLastKeysAreTrustedForTheToleranceAndNoLonger() {
		HttpClient client = from("127.0.0.60");
		assertThat(status(client)).as("the provider up").isEqualTo(200);
		long lastFetch = System.nanoTime();
		IDP.stop(0);
		// past the JWKS's 1 s lifetime, within the tolerance: the last keys still verify new tokens (the wait ends
		// short of the tolerance; the check below says the answer came within it, however slow the machine)
		await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofMillis(TOLERANCE_MILLIS - 500))
			.untilAsserted(() -> assertThat(status(client)).as("1.5 s into the outage").isEqualTo(200));
		assertThat(System.nanoTime() - lastFetch).isLessThan(Duration.ofMillis(TOLERANCE_MILLIS).toNanos());
		// a wait for time: the tolerance runs out on the wall clock, no event marks it
		await().pollDelay(Duration.ofMillis(TOLERANCE_MILLIS)).pollInterval(Duration.ofMillis(500))
			.atMost(Duration.ofMillis(3 * TOLERANCE_MILLIS))
			.untilAsserted(() -> assertThat(status(client)).as("past the tolerance").isEqualTo(503));
	}

	private int status(HttpClient client) {
		String token = FailedTokensTest.token(KEYS, "k1", "user-" + (++subjects));
		return send(client, HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/short-links/jwks"))
			.header("Authorization", "Bearer " + token)
			.GET()).statusCode();
	}

	private static HttpServer idp() {
		try {
			HttpServer idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
			byte[] body = new JWKSet(new RSAKey.Builder((RSAPublicKey) KEYS.getPublic()).keyID("k1").build())
				.toString(true).getBytes(StandardCharsets.UTF_8);
			idp.createContext("/jwks", exchange -> {
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

}
