package dev.perflab.e2e;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static dev.perflab.e2e.Gateway.authed;
import static dev.perflab.e2e.Gateway.json;
import static dev.perflab.e2e.Gateway.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Seed 000's send path end to end: POST through the gateway to mail, mail's outbox relay to send, send to the real
 * SMTP server (GreenMail, started by scripts/stack/stack.sh), delivery status back through the gateway.
 */
class SendThroughGatewayTest {

	static final String ALICE = DevTokens.token("alice", "1");

	static final String BOB = DevTokens.token("bob", "1");

	static final String SEND_ACTUATOR = "http://127.0.0.1:"
			+ (Integer.parseInt(System.getenv().getOrDefault("PERFLAB_SEND_PORT", "8082")) + 1000);

	static final String SEND_API = "http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_SEND_PORT", "8082");


	@Test
	void anAcceptedMailIsDeliveredOncePerRecipientAndItsStatusIsReadable() {
		long tag = System.nanoTime();
		String to = "to" + tag + "@e2e.perflab.test", cc = "cc" + tag + "@e2e.perflab.test", bcc = "bcc" + tag + "@e2e.perflab.test";
		HttpResponse<String> accepted = send(authed("/v2/mails/send", ALICE).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"cert_key":"e2e%d","sender_no":1,"to":["%s"],"cc":["%s"],"bcc":["%s"],"subject":"e2e delivery",
					 "content":"hello","important":false,"is_save":true,"is_separate_send":false,"is_encrypt":false,
					 "is_receipt_confirm":true}""".formatted(tag, to, cc, bcc))));
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) json(accepted).get("mail_no")).longValue();

		Map<?, ?> delivery = awaitDone(no);
		List<?> recipients = (List<?>) delivery.get("recipients");
		assertThat(recipients).hasSize(3).allSatisfy(r -> assertThat(((Map<?, ?>) r).get("status")).isEqualTo("delivered"));
		for (String address : List.of(to, cc, bcc)) {
			List<String> inbox = SmtpInbox.of(address).stream().filter(m -> m.contains("X-Perflab-Mail: " + no + "\r\n")).toList();
			assertThat(inbox).as(address).hasSize(1);
			// the link in the message resolves at mail's public read-receipt endpoint, through the gateway
			String link = inbox.getFirst().lines().filter(l -> l.startsWith("X-Perflab-Receipt-Confirm: ")).findFirst()
				.orElseThrow().substring("X-Perflab-Receipt-Confirm: ".length());
			HttpResponse<String> confirmed = send(Gateway.request(URI.create(link).getRawPath()).GET());
			assertThat(confirmed.statusCode()).as(link).isEqualTo(204);
			assertThat(confirmed.body()).as("the public answer names neither the mail nor the address").isEmpty();
		}

		assertThat(send(authed("/v2/mails/" + no + "/delivery", BOB).GET()).statusCode()).as("bob never sees alice's delivery")
			.isEqualTo(404);
		assertThat(send(Gateway.request("/v2/mails/" + no + "/delivery").GET()).statusCode()).isEqualTo(401);
	}

	/**
	 * With a valid token, so authentication cannot be what answers: the gateway has no route to send's hand-off API,
	 * and send never sees the call (had it been routed, send would have refused a user's identity with 403).
	 */
	@Test
	void theHandOffApiIsNotRoutedEvenForAnAuthenticatedCaller() {
		String job = "{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}";
		// the count this test reads moves when send refuses a call: one made straight at send, with no identity
		double beforeDirect = refusedHandOffs();
		HttpResponse<String> direct = send(HttpRequest.newBuilder(URI.create(SEND_API + "/internal/jobs/" + System.nanoTime()))
			.header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(job)));
		assertThat(direct.statusCode()).as(direct.body()).isEqualTo(401);
		double refusedBefore = refusedHandOffs();
		assertThat(refusedBefore).as("send's own count of refused hand-off calls").isEqualTo(beforeDirect + 1);
		for (String method : List.of("PUT", "GET")) {
			HttpResponse<String> response = send(authed("/internal/jobs/" + System.nanoTime(), ALICE)
				.header("Content-Type", "application/json")
				.method(method, HttpRequest.BodyPublishers.ofString(job)));
			assertThat(response.statusCode()).as(method + " " + response.body()).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
		}
		assertThat(refusedHandOffs()).as("calls of send's hand-off API it refused (401/403)").isEqualTo(refusedBefore);
	}

	/** Requests send's /internal/jobs answered 401 or 403, from its own Prometheus endpoint. */
	private static double refusedHandOffs() {
		HttpResponse<String> metrics = send(HttpRequest.newBuilder(URI.create(SEND_ACTUATOR + "/actuator/prometheus")).GET());
		assertThat(metrics.statusCode()).isEqualTo(200);
		return metrics.body().lines()
			.filter(l -> l.startsWith("http_server_requests_seconds_count{") && l.contains("uri=\"/internal/jobs/{jobId}\"")
					&& (l.contains("status=\"401\"") || l.contains("status=\"403\"")))
			.mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
			.sum();
	}

	private static Map<?, ?> awaitDone(long no) {
		return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
			HttpResponse<String> response = send(authed("/v2/mails/" + no + "/delivery", ALICE).GET());
			assertThat(response.statusCode()).as(response.body()).isIn(200, 404); // 404 until the relay hands it over
			return response.statusCode() == 200 ? json(response) : Map.of();
		}, delivery -> "done".equals(delivery.get("status")));
	}
}
