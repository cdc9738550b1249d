package dev.perflab.e2e;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static dev.perflab.e2e.Gateway.authed;
import static dev.perflab.e2e.Gateway.json;
import static dev.perflab.e2e.Gateway.send;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 000's send path end to end: POST through the gateway to mail, mail's outbox relay to send, send to the real
 * SMTP server (GreenMail, started by scripts/stack.sh), delivery status back through the gateway.
 */
class SendThroughGatewayTest {

	static final String ALICE = DevTokens.token("alice", "1");

	static final String BOB = DevTokens.token("bob", "1");

	static final String SMTP_API = "http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_SMTP_API_PORT", "18025");

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
			List<String> inbox = inbox(address).stream().filter(m -> m.contains("X-Perflab-Mail: " + no + "\r\n")).toList();
			assertThat(inbox).as(address).hasSize(1);
			// the link in the message resolves at mail's public read-receipt endpoint, through the gateway
			String link = inbox.getFirst().lines().filter(l -> l.startsWith("X-Perflab-Receipt-Confirm: ")).findFirst()
				.orElseThrow().substring("X-Perflab-Receipt-Confirm: ".length());
			HttpResponse<String> confirmed = send(Gateway.request(URI.create(link).getRawPath()).GET());
			assertThat(confirmed.statusCode()).as(link).isEqualTo(200);
			assertThat(((Number) json(confirmed).get("mail_no")).longValue()).isEqualTo(no);
		}

		assertThat(send(authed("/v2/mails/" + no + "/delivery", BOB).GET()).statusCode()).as("bob never sees alice's delivery")
			.isEqualTo(404);
		assertThat(send(Gateway.request("/v2/mails/" + no + "/delivery").GET()).statusCode()).isEqualTo(401);
		assertThat(send(Gateway.request("/internal/jobs/" + no).GET()).statusCode()).as("the hand-off API is not routed")
			.isIn(401, 404);
	}

	private static Map<?, ?> awaitDone(long no) {
		Instant until = Instant.now().plus(Duration.ofSeconds(30));
		while (true) {
			HttpResponse<String> response = send(authed("/v2/mails/" + no + "/delivery", ALICE).GET());
			if (response.statusCode() == 200 && "done".equals(json(response).get("status"))) {
				return json(response);
			}
			assertThat(response.statusCode()).as(response.body()).isIn(200, 404); // 404 until the relay hands it over
			assertThat(Instant.now()).as("mail %d delivered in time: %s", no, response.body()).isBefore(until);
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException e) {
				throw new IllegalStateException(e);
			}
		}
	}

	private static List<String> inbox(String email) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(SMTP_API + "/api/user/"
				+ URLEncoder.encode(email, StandardCharsets.UTF_8) + "/messages/INBOX/")).GET());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return Gateway.JSON.readValue(response.body(), List.class).stream().map(m -> (String) ((Map<?, ?>) m).get("mimeMessage"))
			.toList();
	}
}
