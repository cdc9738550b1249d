package dev.perflab.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The gateway over real HTTP, with real Redis (local stack) and a real upstream server started here. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "perflab.gateway.rate-limit.replenish-rate=5", "perflab.gateway.rate-limit.burst-capacity=5" })
class GatewayTest {

	static final Upstream UPSTREAM = new Upstream();

	static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

	@LocalServerPort
	int port;

	@Autowired
	StringRedisTemplate redis;

	@DynamicPropertySource
	static void wiring(DynamicPropertyRegistry registry) throws IOException {
		String upstream = "http://127.0.0.1:" + UPSTREAM.port();
		registry.add("perflab.gateway.services.shortener", () -> upstream);
		registry.add("perflab.gateway.services.mail", () -> "http://127.0.0.1:1");
		registry.add("perflab.gateway.jwt.issuer", () -> Tokens.ISSUER);
		String pem = "file:" + Tokens.publicKeyPem();
		registry.add("perflab.gateway.jwt.public-key", () -> pem);
	}

	@AfterAll
	static void stop() {
		UPSTREAM.stop();
	}

	@Test
	void forwardsTheVerifiedCallerAndStripsClientIdentityHeaders() {
		String user = user();
		HttpResponse<String> response = send(get("/v1/short-links/abc").header("Authorization", "Bearer " + Tokens.valid(user, "7"))
			.header("X-Perflab-User", "mallory")
			.header("X-Perflab-Office", "666")
			.header("X-Perflab-Admin", "true"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"user\":\"" + user + "\"", "\"office\":\"7\"", "\"spoof\":null");
	}

	@Test
	void refusesMissingForgedExpiredAndForeignTokens() {
		long now = Instant.now().getEpochSecond();
		String user = user();
		for (String token : new String[] { null, "garbage", "a.b.c",
				Tokens.sign(Tokens.OTHER_KEYS.getPrivate(), "RS256", Tokens.ISSUER, user, "1", now + 600),
				Tokens.sign(Tokens.KEYS.getPrivate(), "RS256", "https://other.issuer", user, "1", now + 600),
				Tokens.sign(Tokens.KEYS.getPrivate(), "RS256", Tokens.ISSUER, user, "1", now - 3600),
				Tokens.b64("{\"alg\":\"none\"}") + "." + Tokens.b64("{\"iss\":\"" + Tokens.ISSUER + "\",\"sub\":\"x\",\"office\":\"1\",\"exp\":" + (now + 600) + "}") + "." }) {
			HttpRequest.Builder request = get("/v1/short-links/abc").header("X-Perflab-User", user);
			HttpResponse<String> response = send(token == null ? request : request.header("Authorization", "Bearer " + token));
			assertThat(response.statusCode()).as(String.valueOf(token)).isEqualTo(401);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
		}
		assertThat(UPSTREAM.hits("GET /v1/short-links/abc")).isLessThanOrEqualTo(1);
	}

	@Test
	void redirectsArePublicAndCachedAtTheEdge() {
		String code = code();
		HttpResponse<String> first = send(get("/s/" + code).header("X-Perflab-User", "mallory"));
		assertThat(first.statusCode()).isEqualTo(302);
		assertThat(first.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		HttpResponse<String> second = send(get("/s/" + code));
		assertThat(second.statusCode()).isEqualTo(302);
		assertThat(second.headers().firstValue("Location")).hasValue("https://example.com/" + code);
		assertThat(second.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		assertThat(second.headers().firstValue("Cache-Control")).hasValue("no-cache");
		assertThat(UPSTREAM.hits(code)).isEqualTo(1);
	}

	@Test
	void neverCachesNoStoreAndDropsEntriesAtTheirMaxAge() throws Exception {
		String noStore = code();
		UPSTREAM.cacheControl.put(noStore, "no-store");
		send(get("/s/" + noStore));
		send(get("/s/" + noStore));
		assertThat(UPSTREAM.hits(noStore)).isEqualTo(2);

		String shortLived = code();
		UPSTREAM.cacheControl.put(shortLived, "max-age=1, public");
		send(get("/s/" + shortLived));
		assertThat(send(get("/s/" + shortLived)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		Thread.sleep(1_100);
		assertThat(send(get("/s/" + shortLived)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(UPSTREAM.hits(shortLived)).isEqualTo(2);
	}

	@Test
	void anInvalidationEvictsAndIsAcknowledged() throws Exception {
		String code = code();
		send(get("/s/" + code));
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		String ackKey = "perflab:shortener:edge-acks:test-" + UUID.randomUUID();
		Long receivers = redis.convertAndSend("perflab:shortener:invalidations", ackKey + " " + code);
		assertThat(receivers).isPositive();
		// every subscribed gateway acknowledges (another one of the local stack may be running too)
		for (int i = 0; i < 100 && !String.valueOf(receivers).equals(redis.opsForValue().get(ackKey)); i++) {
			Thread.sleep(10);
		}
		assertThat(redis.opsForValue().get(ackKey)).isEqualTo(String.valueOf(receivers));
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
	}

	@Test
	void aRedirectFetchedAcrossAnInvalidationIsNotKept() throws Exception {
		String code = "slow" + code().substring(0, 6);
		UPSTREAM.slowGate = new CountDownLatch(1);
		CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> send(get("/s/" + code)));
		for (int i = 0; i < 200 && UPSTREAM.hits(code) == 0; i++) {
			Thread.sleep(10);
		}
		String ackKey = "perflab:shortener:edge-acks:test-" + UUID.randomUUID();
		redis.convertAndSend("perflab:shortener:invalidations", ackKey + " " + code);
		for (int i = 0; i < 100 && redis.opsForValue().get(ackKey) == null; i++) {
			Thread.sleep(10);
		}
		UPSTREAM.slowGate.countDown();
		assertThat(inFlight.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(302);
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
	}

	@Test
	void generatesOrPassesOnRequestIds() {
		String token = Tokens.valid(user(), "1");
		HttpResponse<String> generated = send(get("/v1/short-links/x").header("Authorization", "Bearer " + token));
		String id = generated.headers().firstValue("X-Request-Id").orElseThrow();
		assertThat(generated.headers().allValues("X-Request-Id")).hasSize(1);
		assertThat(generated.body()).contains("\"requestId\":\"" + id + "\"");
		HttpResponse<String> passed = send(get("/v1/short-links/x").header("Authorization", "Bearer " + token)
			.header("X-Request-Id", "trace-123"));
		assertThat(passed.headers().firstValue("X-Request-Id")).hasValue("trace-123");
		assertThat(passed.body()).contains("\"requestId\":\"trace-123\"");
		HttpResponse<String> insane = send(get("/v1/short-links/x").header("Authorization", "Bearer " + token)
			.header("X-Request-Id", "<script>"));
		assertThat(insane.headers().firstValue("X-Request-Id").orElseThrow()).isNotEqualTo("<script>");
	}

	@Test
	void rateLimitsEachCallerWith429Problems() {
		String token = Tokens.valid(user(), "1");
		int limited = 0;
		for (int i = 0; i < 20; i++) {
			HttpResponse<String> response = send(get("/v1/short-links/r").header("Authorization", "Bearer " + token));
			if (response.statusCode() == 429) {
				limited++;
				assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
				assertThat(response.body()).contains("rate-limited");
			}
		}
		assertThat(limited).isGreaterThan(0);
		// another caller has a bucket of its own
		assertThat(send(get("/v1/short-links/r").header("Authorization", "Bearer " + Tokens.valid(user(), "1")))
			.statusCode()).isEqualTo(200);
	}

	@Test
	void aServiceThatIsDownIsA503ProblemForReadsAndWrites() {
		String token = Tokens.valid(user(), "1");
		HttpResponse<String> read = send(get("/v2/mailboxes").header("Authorization", "Bearer " + token));
		assertThat(read.statusCode()).isEqualTo(503);
		assertThat(read.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		HttpResponse<String> write = send(request("/v2/mails/send").header("Authorization", "Bearer " + token)
			.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
		assertThat(write.statusCode()).isEqualTo(503);
	}

	@Test
	void unknownRoutesAreProblemsNotPages() {
		HttpResponse<String> response = send(get("/nowhere").header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
	}

	private HttpRequest.Builder get(String path) {
		return request(path).GET();
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException(e);
		}
	}

	private static String user() {
		return "u" + UUID.randomUUID().toString().substring(0, 8);
	}

	private static String code() {
		return Long.toString(System.nanoTime(), 36);
	}
}
