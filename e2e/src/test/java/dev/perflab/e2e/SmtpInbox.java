package dev.perflab.e2e;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What reached the local stack's SMTP server (GreenMail), read through its REST API. */
final class SmtpInbox {

	static final String API = "http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_SMTP_API_PORT", "18025");

	private SmtpInbox() {
	}

	/** Every message delivered to {@code email}, as raw MIME; none while GreenMail has never seen the address. */
	static List<String> of(String email) {
		HttpResponse<String> response = Gateway.send(HttpRequest.newBuilder(URI.create(API + "/api/user/"
				+ URLEncoder.encode(email, StandardCharsets.UTF_8) + "/messages/INBOX/")).GET());
		// GreenMail (2.1) answers 400 "User '<address>' not found" for an address no mail reached yet (404 in other
		// versions): the inbox is empty, not broken
		if (response.statusCode() == 404 || response.statusCode() == 400 && response.body().contains("not found")) {
			return List.of();
		}
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return Gateway.JSON.readValue(response.body(), List.class).stream()
			.map(m -> (String) ((Map<?, ?>) m).get("mimeMessage"))
			.toList();
	}
}
