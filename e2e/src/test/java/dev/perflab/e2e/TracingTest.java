package dev.perflab.e2e;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.perflab.e2e.OtlpReceiver.Received;

import static dev.perflab.e2e.Gateway.authed;
import static dev.perflab.e2e.Gateway.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * W3C trace context across the hops, as received by a real OTLP endpoint: the local profile exports to it with
 * sampling probability 0, so only requests that arrive with a sampled {@code traceparent} are recorded. The spans are
 * joined by their parent ids, not only by their trace id: each hop's server span is the child of the caller's span.
 */
class TracingTest {

	static final String ALICE = DevTokens.token("alice", "1");

	static final Duration EXPORTED = Duration.ofSeconds(30); // the batch processor exports every 5 s

	static final SecureRandom RANDOM = new SecureRandom();

	static OtlpReceiver receiver;

	/** The trace ids this class sent sampled: the only ones the stack may export. */
	static final Set<String> SAMPLED = ConcurrentHashMap.newKeySet();

	@BeforeAll
	static void receive() throws Exception {
		receiver = new OtlpReceiver();
	}

	@AfterAll
	static void stop() {
		receiver.close();
	}

	@Test
	void aSampledRequestIsOneTraceFromTheGatewayIntoTheService() {
		String trace = sampledTrace(), caller = hex(8);
		HttpResponse<String> created = send(authed("/v1/short-links", ALICE).header("Content-Type", "application/json")
			.header("traceparent", "00-" + trace + "-" + caller + "-01")
			.POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/traced\"}")));
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

		List<Received> spans = awaitServerSpans(trace, "gateway", "shortener");
		Received gateway = only(spans, "gateway", true);
		Received shortener = only(spans, "shortener", true);
		assertThat(gateway.parentId()).as("the gateway continues the caller's trace").isEqualTo(caller);
		assertThat(shortener.parentId()).as("shortener's server span is the gateway's child: %s", spans)
			.isEqualTo(gateway.spanId());
	}

	@Test
	void aSendIsOneTraceThroughTheOutboxRelayIntoSend() {
		String trace = sampledTrace(), caller = hex(8);
		long tag = System.nanoTime();
		HttpResponse<String> accepted = send(authed("/v2/mails/send", ALICE).header("Content-Type", "application/json")
			.header("traceparent", "00-" + trace + "-" + caller + "-01")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"cert_key":"trace%d","sender_no":1,"to":["traced%d@e2e.perflab.test"],"subject":"e2e trace",
					 "content":"hello","important":false,"is_save":true,"is_separate_send":false,"is_encrypt":false,
					 "is_receipt_confirm":false}""".formatted(tag, tag))));
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);

		// mail exports its server span and the relay's later call in batches of their own: wait for the whole chain
		await().atMost(EXPORTED).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			List<Received> spans = receiver.trace(trace);
			Map<String, Received> byId = spans.stream().collect(Collectors.toMap(Received::spanId, Function.identity()));
			Received sendServer = only(spans, "send", true);
			Received relayCall = byId.get(sendServer.parentId());
			assertThat(relayCall).as("send's server span has its parent in the trace: %s", spans).isNotNull();
			assertThat(relayCall.service()).isEqualTo("mail");
			assertThat(relayCall.isClient()).as("send's parent is mail's client call: %s", relayCall).isTrue();

			// up from the relay's call, through the push the relay ran after the commit, to the request that wrote it
			Received mailServer = only(spans, "mail", true);
			assertThat(ancestors(relayCall, byId)).as("the relay's call descends from the send request: %s", spans)
				.contains(mailServer.spanId());
			assertThat(mailServer.parentId()).isEqualTo(only(spans, "gateway", true).spanId());
		});
	}

	@Test
	void requestsWithoutASampledTraceparentAreNotExported() {
		String unsampled = hex(16);
		send(authed("/v1/short-links", ALICE).header("Content-Type", "application/json")
			.header("traceparent", "00-" + unsampled + "-" + hex(8) + "-00")
			.POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/unsampled\"}")));
		send(authed("/v1/short-links", ALICE).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/untraced\"}")));
		String sampled = sampledTrace();
		send(authed("/v1/short-links", ALICE).header("Content-Type", "application/json")
			.header("traceparent", "00-" + sampled + "-" + hex(8) + "-01")
			.POST(HttpRequest.BodyPublishers.ofString("{\"url\":\"https://example.com/sampled\"}")));

		// the sampled request, sent last, arrived: the ones before it were exported by then if they ever will be
		awaitServerSpans(sampled, "gateway", "shortener");
		assertThat(receiver.trace(unsampled)).as("an unsampled traceparent is not recorded").isEmpty();
		assertThat(receiver.traceIds()).as("nothing else (no traceparent, background work) is sampled")
			.isSubsetOf(SAMPLED);
	}

	/** Waits until the trace holds a server span of each service (each exports its batch on its own schedule). */
	private static List<Received> awaitServerSpans(String trace, String... services) {
		await().atMost(EXPORTED).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
			List<Received> spans = receiver.trace(trace);
			for (String service : services) {
				assertThat(spans).as("a server span of %s in trace %s", service, trace)
					.anyMatch(s -> s.service().equals(service) && s.isServer());
			}
		});
		return receiver.trace(trace);
	}

	private static Received only(List<Received> spans, String service, boolean server) {
		List<Received> matching = spans.stream().filter(s -> s.service().equals(service) && s.isServer() == server)
			.toList();
		assertThat(matching).as("one %s span of %s in %s", server ? "server" : "other", service, spans).hasSize(1);
		return matching.getFirst();
	}

	private static List<String> ancestors(Received span, Map<String, Received> byId) {
		List<String> ids = new java.util.ArrayList<>();
		for (Optional<Received> at = Optional.of(span); at.isPresent(); at = Optional.ofNullable(byId.get(at.get().parentId()))) {
			ids.add(at.get().parentId());
		}
		return ids;
	}

	private static String sampledTrace() {
		String trace = hex(16);
		SAMPLED.add(trace);
		return trace;
	}

	private static String hex(int bytes) {
		byte[] random = new byte[bytes];
		RANDOM.nextBytes(random);
		return HexFormat.of().formatHex(random);
	}
}
