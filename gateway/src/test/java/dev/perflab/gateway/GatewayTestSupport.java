package dev.perflab.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One gateway for every test class (same configuration, so Spring's context cache shares it), wired to real Redis
 * (local stack), a real upstream server started here, and a service address where nothing listens.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "perflab.gateway.rate-limit.replenish-rate=5", "perflab.gateway.rate-limit.burst-capacity=5",
				// the warm-up asks every service once before readiness; here one of them (HUNG) never answers, so each
				// context would wait out the warm-up's whole time limit (20 s) before its first test: WarmUpTest runs it
				"perflab.gateway.warm-up.requests=0" })
@Import(ConnectAttempts.class)
abstract class GatewayTestSupport {

	/** Shared by every class on the cached context; it dies with the test JVM. */
	static final Upstream UPSTREAM = new Upstream();

	/** Stands for notifier: every answer breaks off after its first bytes (closed or hung). */
	static final HungService HUNG = new HungService();

	/** Nothing listens here: connections to it are refused. */
	static final int DEAD_PORT = 1;

	/** A service name no resolver knows (the .invalid top-level domain is reserved for that). */
	static final String UNRESOLVABLE_HOST = "no-such-service.perflab.invalid";

	/** Names this gateway's Redis connections, so a test can cut exactly its own subscriber. */
	static final String REDIS_CLIENT_NAME = "gateway-test-" + UUID.randomUUID().toString().substring(0, 8);

	/** The repository's route files, one per service. */
	static final java.nio.file.Path ROUTES = java.nio.file.Path.of("").toAbsolutePath().resolveSibling("config/gateway/routes");

	static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void wiring(DynamicPropertyRegistry registry) throws IOException {
		String upstream = "http://127.0.0.1:" + UPSTREAM.port();
		registry.add("perflab.gateway.services.shortener", () -> upstream);
		registry.add("perflab.gateway.services.route", () -> upstream);
		registry.add("perflab.gateway.services.mail", () -> "http://127.0.0.1:" + DEAD_PORT);
		registry.add("perflab.gateway.services.notifier", () -> "http://127.0.0.1:" + HUNG.port());
		registry.add("perflab.gateway.services.send", () -> "http://" + UNRESOLVABLE_HOST + ":8082");
		registry.add("perflab.gateway.jwt.issuer", () -> Tokens.ISSUER);
		String pem = "file:" + Tokens.publicKeyPem();
		registry.add("perflab.gateway.jwt.public-key", () -> pem);
		String identityKey = "file:" + Tokens.identityKeyPem();
		registry.add("perflab.identity.signing-key", () -> identityKey);
		registry.add("spring.data.redis.client-name", () -> REDIS_CLIENT_NAME);
		// the same route files the local stack loads, from the repository (tests run in gateway/)
		registry.add("perflab.gateway.routes.dir", () -> ROUTES.toString());
	}

	/** 1 while the rate limiter decides locally (its Redis not answering), 0 while Redis decides. */
	double rateLimiterLocal() {
		Gauge gauge = meters.find("perflab.gateway.rate.limiter.local").gauge();
		assertThat(gauge).as("the limiter's mode gauge").isNotNull();
		return gauge.value();
	}

	HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
	}

	HttpRequest.Builder get(String path) {
		return request(path).GET();
	}

	static HttpResponse<String> send(HttpRequest.Builder request) {
		return send(CLIENT, request);
	}

	static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) {
		try {
			return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException(e);
		}
	}

	/**
	 * A client on a loopback address of its own (Linux answers on all of 127.0.0.0/8): its own per-address rate-limit
	 * bucket and failed-token budget, whatever other tests on the shared context sent from 127.0.0.1.
	 */
	static HttpClient from(String address) {
		try {
			return HttpClient.newBuilder()
				.localAddress(java.net.InetAddress.getByName(address))
				.followRedirects(HttpClient.Redirect.NEVER)
				.build();
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}

	static String user() {
		return "u" + UUID.randomUUID().toString().substring(0, 8);
	}

	static String code() {
		return Long.toString(System.nanoTime(), 36);
	}
}
