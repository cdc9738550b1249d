package dev.perflab.e2e;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import static dev.perflab.e2e.Gateway.authed;
import static dev.perflab.e2e.Gateway.createLink;
import static dev.perflab.e2e.Gateway.json;
import static dev.perflab.e2e.Gateway.redirect;
import static dev.perflab.e2e.Gateway.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The shortener as a client sees it: through the gateway, with real tokens, against the real stores. */
class ShortenerThroughGatewayTest {

	final String alice = DevTokens.token("alice", "1");

	@Test
	void createsFollowsAndCountsALink() {
		String code = code(createLink(alice, "{\"url\":\"https://example.com/e2e\"}"));
		HttpResponse<String> first = redirect(code);
		assertThat(first.statusCode()).isEqualTo(302);
		assertThat(first.headers().firstValue("Location")).hasValue("https://example.com/e2e");
		HttpResponse<String> second = redirect(code);
		assertThat(second.statusCode()).isEqualTo(302);
		assertThat(second.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");

		// hits are batched (1 s) on both the gateway and the shortener; wait for them to land
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(200))
			.untilAsserted(() -> assertThat(hits(code)).isEqualTo(2L));
	}

	@Test
	void aDeletedLinkIsNeverServedAfterTheDeleteReturns() throws Exception {
		String code = code(createLink(alice, "{\"url\":\"https://example.com/to-delete\"}"));
		redirect(code);
		assertThat(redirect(code).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");

		AtomicBoolean stop = new AtomicBoolean();
		ConcurrentLinkedQueue<long[]> served = new ConcurrentLinkedQueue<>();
		List<Thread> readers = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			readers.add(Thread.ofPlatform().start(() -> {
				while (!stop.get()) {
					long started = System.nanoTime();
					int status = redirect(code).statusCode();
					served.add(new long[] { started, status });
				}
			}));
		}
		// the readers are served the cached redirect before the delete
		await().atMost(Duration.ofSeconds(10)).until(() -> served.stream().anyMatch(r -> r[1] == 302));
		HttpResponse<String> deleted = send(authed("/v1/short-links/" + code, alice).DELETE());
		long deleteReturned = System.nanoTime();
		assertThat(deleted.statusCode()).isEqualTo(204);
		// a wait for time: the readers go on asking for 300 ms after the delete returned, not just once
		await().pollDelay(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(10))
			.until(() -> served.stream().anyMatch(r -> r[0] > deleteReturned));
		stop.set(true);
		for (Thread reader : readers) {
			reader.join();
		}
		assertThat(served).anyMatch(r -> r[1] == 302);
		assertThat(served.stream().filter(r -> r[0] > deleteReturned)).isNotEmpty()
			.allMatch(r -> r[1] == 404, "every redirect asked after the delete returned is 404");
	}

	@Test
	void anExpiringLinkIsNeverServedPastItsExpiry() throws Exception {
		Instant expiresAt = Instant.now().plusSeconds(3);
		String code = code(createLink(alice,
				"{\"url\":\"https://example.com/expiring\",\"expiresAt\":\"" + expiresAt + "\"}"));
		List<long[]> served = new ArrayList<>();
		while (Instant.now().isBefore(expiresAt.plusMillis(700))) {
			long startedMillis = System.currentTimeMillis();
			served.add(new long[] { startedMillis, redirect(code).statusCode() });
		}
		assertThat(served).anyMatch(r -> r[1] == 302);
		assertThat(served).filteredOn(r -> r[0] >= expiresAt.toEpochMilli())
			.isNotEmpty()
			.allMatch(r -> r[1] == 404, "every redirect asked after expiry is 404");
	}

	@Test
	void identityComesFromTheTokenNeverFromClientHeaders() {
		String code = code(send(authed("/v1/short-links", alice).header("Content-Type", "application/json")
			.header("X-Perflab-User", "mallory")
			.POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/owned\"}"))));
		String mallory = DevTokens.token("mallory", "1");
		assertThat(send(authed("/v1/short-links/" + code, mallory).GET()).statusCode()).isEqualTo(404);
		assertThat(send(authed("/v1/short-links/" + code, alice).GET().header("X-Perflab-User", "mallory"))
			.statusCode()).isEqualTo(200);
	}

	@Test
	void refusesMissingExpiredForeignAndWrongIssuerTokens() throws Exception {
		HttpRequest.Builder none = Gateway.request("/v1/short-links").header("Content-Type", "application/json")
			.header("X-Perflab-User", "alice").header("X-Perflab-Office", "1")
			.POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com\"}"));
		assertUnauthorized(send(none));
		assertUnauthorized(createLink(DevTokens.expired("alice"), "{\"url\":\"https://example.com\"}"));
		assertUnauthorized(createLink(DevTokens.wrongIssuer("alice"), "{\"url\":\"https://example.com\"}"));
		assertUnauthorized(createLink(DevTokens.signedByAnotherKey("alice"), "{\"url\":\"https://example.com\"}"));
		assertUnauthorized(createLink(DevTokens.forAnotherAudience("alice"), "{\"url\":\"https://example.com\"}"));
		assertUnauthorized(createLink("not.a.jwt", "{\"url\":\"https://example.com\"}"));
	}

	@Test
	void badInputIsAProblemAndNeverALink() {
		assertProblem(createLink(alice, "{\"url\":\"javascript:alert(1)\"}"), 400);
		assertProblem(createLink(alice, "{\"url\":\"https://example.com\",\"extra\":true}"), 400);
		assertProblem(createLink(alice, "{\"url\":"), 400);
		assertProblem(createLink(alice, "{\"url\":\"https://example.com/" + "a".repeat(17_000) + "\"}"), 413);
		assertProblem(redirect("no-such-code"), 404);
	}

	@Test
	void everyAnswerCarriesARequestId() {
		HttpResponse<String> generated = redirect("zzzzzzzz");
		assertThat(generated.headers().firstValue("X-Request-Id")).isPresent();
		HttpResponse<String> passed = send(Gateway.request("/s/zzzzzzzz").header("X-Request-Id", "e2e-trace-1").GET());
		assertThat(passed.headers().firstValue("X-Request-Id")).hasValue("e2e-trace-1");
	}

	private static void assertUnauthorized(HttpResponse<String> response) {
		assertProblem(response, 401);
	}

	private static void assertProblem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
	}

	private static String code(HttpResponse<String> created) {
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		return (String) json(created).get("code");
	}

	private Long hits(String code) {
		Object hits = json(send(authed("/v1/short-links/" + code, alice).GET())).get("hits");
		return hits instanceof Number n ? n.longValue() : null;
	}
}
