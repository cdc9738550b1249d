package dev.perflab.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Request ids, rate limits, retries and the gateway's own errors, over real HTTP. */
class GatewayTest extends GatewayTestSupport {

	@Test
	void generatesOrPassesOnRequestIds() {
		String token = Tokens.valid(user(), "1");
		HttpResponse<String> generated = send(get("/v1/short-links/x").header("Authorization", "Bearer " + token));
		String id = generated.headers().firstValue("X-Request-Id").orElseThrow();
		assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
		assertThat(generated.headers().allValues("X-Request-Id")).hasSize(1);
		assertThat(generated.body()).contains("\"requestId\":\"" + id + "\"");
		HttpResponse<String> passed = send(get("/v1/short-links/x").header("Authorization", "Bearer " + token)
			.header("X-Request-Id", "trace-123"));
		assertThat(passed.headers().firstValue("X-Request-Id")).hasValue("trace-123");
		assertThat(passed.body()).contains("\"requestId\":\"trace-123\"");
		for (String insane : new String[] { "<script>", "a".repeat(65) }) {
			HttpResponse<String> replaced = send(get("/v1/short-links/x").header("Authorization", "Bearer " + token)
				.header("X-Request-Id", insane));
			String replacement = replaced.headers().firstValue("X-Request-Id").orElseThrow();
			assertThat(replacement).isNotEqualTo(insane);
			assertThat(replaced.body()).contains("\"requestId\":\"" + replacement + "\"");
		}
	}

	/**
	 * Sent over a raw socket: the JDK's client refuses to send most of these. The service sees none of the caller's
	 * hop-by-hop or forwarded headers, and the caller none of the service's hop-by-hop headers.
	 */
	@Test
	void passesOnNoHopByHopOrForwardedHeadersEitherWay() throws Exception {
		String head;
		String body;
		try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(("""
					GET /v1/short-links/hop HTTP/1.1\r
					Host: 127.0.0.1\r
					Authorization: Bearer %s\r
					Connection: close, X-Client-Hop\r
					X-Client-Hop: 1\r
					Keep-Alive: timeout=5\r
					Proxy-Authorization: Basic Zm9vOmJhcg==\r
					TE: trailers\r
					Upgrade: h2c\r
					Forwarded: for=203.0.113.9;host=evil.example\r
					X-Forwarded-For: 203.0.113.9\r
					X-Forwarded-Host: evil.example\r
					X-Kept: 1\r
					\r
					""".formatted(Tokens.valid(user(), "1"))).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			String response = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
			head = response.substring(0, response.indexOf("\r\n\r\n")).toLowerCase(java.util.Locale.ROOT);
			body = response.substring(response.indexOf("\r\n\r\n") + 4);
		}
		assertThat(head).startsWith("http/1.1 200");
		assertThat(body).contains("\"x-kept\"");
		for (String removed : new String[] { "connection", "x-client-hop", "keep-alive", "proxy-authorization", "te",
				"upgrade", "forwarded", "x-forwarded-for", "x-forwarded-host" }) {
			assertThat(body).as("the service is not sent %s", removed).doesNotContain("\"" + removed + "\"");
		}
		assertThat(head).contains("\ncontent-type: application/json")
			.doesNotContain("\nkeep-alive:")
			.doesNotContain("\nproxy-authenticate:")
			.doesNotContain("\nx-upstream-hop:");
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
				assertThat(response.body()).contains("\"type\":\"https://perflab.dev/problems/rate-limited\"");
			}
		}
		assertThat(limited).isGreaterThan(0);
		// another caller has a bucket of its own
		assertThat(send(get("/v1/short-links/r").header("Authorization", "Bearer " + Tokens.valid(user(), "1")))
			.statusCode()).isEqualTo(200);
	}

	@Test
	void retriesReadsThatCouldNotConnectButNeverWrites() {
		String token = Tokens.valid(user(), "1");
		int before = ConnectAttempts.to(DEAD_PORT);
		HttpResponse<String> read = send(get("/v2/mailboxes").header("Authorization", "Bearer " + token));
		assertThat(read.statusCode()).isEqualTo(503);
		assertThat(read.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(read.body()).contains("\"type\":\"https://perflab.dev/problems/upstream-unavailable\"");
		assertThat(read.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(ConnectAttempts.to(DEAD_PORT) - before).as("one attempt and two retries").isEqualTo(3);

		before = ConnectAttempts.to(DEAD_PORT);
		HttpResponse<String> write = send(request("/v2/mails/send").header("Authorization", "Bearer " + token)
			.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
		assertThat(write.statusCode()).isEqualTo(503);
		assertThat(ConnectAttempts.to(DEAD_PORT) - before).as("a write is tried once").isEqualTo(1);
	}

	@Test
	void anAnswerThatStallsHalfwayIsCutOnceNoByteCameForTheRoutesResponseTimeout() {
		// notifier's route waits 10 s (route metadata response-timeout) for the headers and for each next byte alike;
		// the answer was under way (200 and its first bytes passed on), so the caller's connection is closed mid-body
		assertCut("/v1/notifications/stall-" + code());
	}

	@Test
	void anAnswerTheServiceBreaksOffIsCutNotEndedAsWhole() {
		assertCut("/v1/notifications/close-" + code());
	}

	/** The caller's read of {@code path} fails as a connection closed mid-answer: not a whole answer, not a hang. */
	private void assertCut(String path) {
		HttpRequest request = get(path).header("Authorization", "Bearer " + Tokens.valid(user(), "1"))
			.timeout(java.time.Duration.ofSeconds(30))
			.build();
		assertThatThrownBy(() -> {
			HttpResponse<String> whole = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
			throw new AssertionError("answered as whole: " + whole.statusCode() + " " + whole.body());
		}).isInstanceOf(java.io.IOException.class).isNotInstanceOf(java.net.http.HttpTimeoutException.class);
	}

	@Test
	void aServiceThatDoesNotAnswerInTimeIsA504ProblemAndIsNotAskedAgain() {
		String code = "slow" + code();
		try {
			UPSTREAM.slowGate = new java.util.concurrent.CountDownLatch(1);
			// the redirect route waits 2 s for an answer (route metadata response-timeout)
			HttpResponse<String> response = send(get("/s/" + code));
			assertThat(response.statusCode()).isEqualTo(504);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(response.body()).contains("\"type\":\"https://perflab.dev/problems/upstream-timeout\"");
			assertThat(UPSTREAM.hits(code)).as("a request that reached the service is not retried").isEqualTo(1);
		}
		finally {
			UPSTREAM.slowGate.countDown();
		}
	}

	@Test
	void unknownRoutesAreProblemsNotPages() {
		HttpResponse<String> response = send(get("/nowhere").header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("\"type\":\"https://perflab.dev/problems/not-found\"").doesNotContain("<html");
	}

	@Test
	void actuatorAnswersOnlyOnItsOwnPortAndNeedsNoTokenThere() throws Exception {
		assertThat(managementPort).isNotEqualTo(port);
		HttpResponse<String> probe = CLIENT.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(probe.statusCode()).isEqualTo(200);
		HttpResponse<String> scrape = CLIENT.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(scrape.body()).contains("jvm_memory_used_bytes")
			.containsPattern("perflab_lab_switch_info\\{[^}]*switch=\"read-retry\",value=\"connection-failures\"\\} 1");
		assertThat(send(get("/actuator/health/readiness")).statusCode()).as("no token on the public port").isEqualTo(401);
		HttpResponse<String> withToken = send(
				get("/actuator/prometheus").header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
		assertThat(withToken.statusCode()).as("the public port does not serve actuator").isEqualTo(404);
		assertThat(withToken.body()).doesNotContain("jvm_memory_used_bytes");
	}

	@Test
	void aServiceNameThatDoesNotResolveIsA503ProblemNotA500() {
		HttpResponse<String> response = send(
				get("/v2/mails/1/delivery").header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(response.body()).contains("\"type\":\"https://perflab.dev/problems/upstream-unavailable\"");
	}

	@Test
	void aReadWhoseConnectionClosesBeforeAnyAnswerIsAskedAgainAWriteIsNot() {
		String token = Tokens.valid(user(), "1");
		String code = "close-once-" + UUID.randomUUID();
		HttpResponse<String> read = send(get("/v1/short-links/" + code).header("Authorization", "Bearer " + token));
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(UPSTREAM.hits("GET v1/short-links/" + code)).as("closed once, answered the second time").isEqualTo(2);

		String other = "close-once-" + UUID.randomUUID();
		HttpResponse<String> write = send(request("/v1/short-links/" + other).header("Authorization", "Bearer " + token)
			.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
		assertThat(write.statusCode()).isEqualTo(503);
		assertThat(write.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(UPSTREAM.hits("POST v1/short-links/" + other)).as("a write is sent once").isEqualTo(1);
	}

	@Test
	void aConnectionClosedWhileTheRequestIsSentIsA503ProblemNeverAnEmpty200() {
		String token = Tokens.valid(user(), "1");
		// a body larger than the socket buffers: the gateway is still sending it when the service closes
		String body = "{\"url\":\"https://example.com/" + "x".repeat(3_000_000) + "\"}";
		for (int i = 0; i < 5; i++) {
			String code = "close-mid-body-" + UUID.randomUUID();
			HttpResponse<String> write = send(request("/v1/short-links/" + code).header("Authorization", "Bearer " + token)
				.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
			assertThat(write.statusCode()).as(write.body()).isEqualTo(503);
			assertThat(write.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(write.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(UPSTREAM.hits("POST v1/short-links/" + code)).as("a write is sent once").isEqualTo(1);
		}
	}

	@Test
	void aConnectionTheServiceResetsIsA503ProblemNotA500() {
		String token = Tokens.valid(user(), "1");
		for (int i = 0; i < 5; i++) {
			String code = "reset-" + UUID.randomUUID();
			HttpResponse<String> write = send(request("/v1/short-links/" + code).header("Authorization", "Bearer " + token)
				.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
			assertThat(write.statusCode()).as(write.body()).isEqualTo(503);
			assertThat(write.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(write.body()).contains("upstream-unavailable");
			assertThat(UPSTREAM.hits("POST v1/short-links/" + code)).as("a write is sent once").isEqualTo(1);
		}
	}
}
