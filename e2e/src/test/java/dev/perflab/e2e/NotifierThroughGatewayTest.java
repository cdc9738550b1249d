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
 * Seeds 001 and 003 end to end: a guestbook signing through the gateway commits at once and its SMS reaches the
 * local stack's SMS endpoint (tools/sms-sink) exactly once; a sign-up's welcome mail reaches the SMTP server
 * (GreenMail) exactly once; another office sees nothing; refused input is a 4xx problem and writes nothing.
 */
class NotifierThroughGatewayTest {

	static final String ALICE = DevTokens.token("alice", "1");

	static final String ALICE_OF_OFFICE_2 = DevTokens.token("alice", "2");

	static final String SMS_SINK = "http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_SMS_SINK_PORT", "18086");


	@Test
	void aSigningsSmsArrivesOnceAfterTheSigningCommitted() {
		long event = createEvent(ALICE, "e2e opening");
		// a number of its own per run: the notifier limits notifications per recipient and hour
		String phone = "010" + String.format("%08d", System.nanoTime() % 100_000_000);
		HttpResponse<String> signed = sign(ALICE, event, "{\"name\":\"guest\",\"phone\":\"" + phone + "\",\"message\":\"congratulations\"}");
		assertThat(signed.statusCode()).as(signed.body()).isEqualTo(201);
		long notification = ((Number) json(signed).get("notification_id")).longValue();

		Map<?, ?> sent = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
			.until(() -> json(send(authed("/v1/notifications/" + notification, ALICE).GET())),
					n -> "SENT".equals(n.get("status")));
		assertThat(sent.get("channel")).isEqualTo("sms");
		// stored as E.164 (+8210...: 13 characters), masked as the guestbook masks it: all but the last four
		assertThat(sent.get("recipient")).as("masked as the guestbook masks it").isEqualTo("*********" + phone.substring(7));
		HttpResponse<String> atSink = send(HttpRequest.newBuilder(URI.create(SMS_SINK + "/deliveries/notification-" + notification)).GET());
		assertThat(json(atSink).get("count")).as("deliveries of notification %d at the SMS endpoint", notification).isEqualTo(1);

		Map<?, ?> page = json(send(authed("/v1/events/" + event + "/guestbook?page=0", ALICE).GET()));
		assertThat((List<?>) page.get("entries")).hasSize(1);
	}

	@Test
	void aSignUpGetsOneWelcomeMailAndTheSameEmailAgainIs409() {
		String email = "member" + System.nanoTime() + "@e2e.perflab.test";
		String body = "{\"email\":\"" + email + "\",\"name\":\"Member\",\"password\":\"correct horse battery\"}";
		HttpResponse<String> created = signUp(ALICE, body);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		assertThat(created.body()).doesNotContain("correct horse battery").doesNotContain("password");
		long notification = ((Number) json(created).get("notification_id")).longValue();

		HttpResponse<String> again = signUp(ALICE, body);
		assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
		assertThat(again.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");

		List<String> inbox = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
			.until(() -> SmtpInbox.of(email), messages -> !messages.isEmpty());
		assertThat(inbox).as("one welcome mail, the duplicate sign-up sent none").hasSize(1);
		assertThat(inbox.getFirst()).contains("X-Perflab-Notification: " + notification + "\r\n");
		assertThat(json(send(authed("/v1/notifications/" + notification, ALICE).GET())).get("status")).isEqualTo("SENT");
	}

	@Test
	void anotherOfficeSeesNothingEvenUnderTheSameLogin() {
		long event = createEvent(ALICE, "office 1 only");
		HttpResponse<String> signed = sign(ALICE, event, "{\"name\":\"guest\",\"phone\":\"01012345679\",\"message\":\"hi\"}");
		long notification = ((Number) json(signed).get("notification_id")).longValue();

		for (HttpResponse<String> response : List.of(send(authed("/v1/events/" + event, ALICE_OF_OFFICE_2).GET()),
				send(authed("/v1/events/" + event + "/guestbook?page=0", ALICE_OF_OFFICE_2).GET()),
				send(authed("/v1/notifications/" + notification, ALICE_OF_OFFICE_2).GET()),
				sign(ALICE_OF_OFFICE_2, event, "{\"name\":\"intruder\",\"phone\":\"01099999999\",\"message\":\"hi\"}"))) {
			assertThat(response.statusCode()).as(response.request().method() + " " + response.uri()).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
		}
		Map<?, ?> page = json(send(authed("/v1/events/" + event + "/guestbook?page=0", ALICE).GET()));
		assertThat((List<?>) page.get("entries")).as("the other office's signing was not written").hasSize(1);
	}

	@Test
	void refusedInputIsA400ProblemNamingTheFieldAndWritesNothing() {
		long event = createEvent(ALICE, "bad input");
		Map<String, String> refused = Map.of(
				"{\"name\":\"guest\",\"phone\":\"call me\",\"message\":\"hi\"}", "phone",
				"{\"name\":\"guest\",\"phone\":\"01012345678\",\"message\":\"" + "x".repeat(501) + "\"}", "message",
				"{\"phone\":\"01012345678\",\"message\":\"hi\"}", "name");
		refused.forEach((body, field) -> {
			HttpResponse<String> response = sign(ALICE, event, body);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
			assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
			assertThat(response.body()).as("the answer names the field").contains("\"" + field + "\"");
		});
		HttpResponse<String> badEmail = signUp(ALICE, "{\"email\":\"not an address\",\"name\":\"x\",\"password\":\"correct horse battery\"}");
		assertThat(badEmail.statusCode()).as(badEmail.body()).isEqualTo(400);
		assertThat(sign(ALICE, 9_000_000_000_000L, "{\"name\":\"g\",\"phone\":\"01012345678\",\"message\":\"hi\"}").statusCode())
			.as("an unknown event").isEqualTo(404);

		Map<?, ?> page = json(send(authed("/v1/events/" + event + "/guestbook?page=0", ALICE).GET()));
		assertThat((List<?>) page.get("entries")).as("no refused signing was written").isEmpty();
	}

	private static long createEvent(String token, String title) {
		HttpResponse<String> created = send(authed("/v1/events", token).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(Gateway.JSON.writeValueAsString(Map.of("title", title)))));
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		return ((Number) json(created).get("id")).longValue();
	}

	private static HttpResponse<String> sign(String token, long event, String body) {
		return send(authed("/v1/events/" + event + "/guestbook", token).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	private static HttpResponse<String> signUp(String token, String body) {
		return send(authed("/v1/members", token).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}
}
