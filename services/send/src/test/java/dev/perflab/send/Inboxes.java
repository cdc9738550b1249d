package dev.perflab.send;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/** What the real SMTP server (GreenMail, started by scripts/stack/stack.sh) received, read through its REST API. */
final class Inboxes {

	static final int API_PORT = Integer.parseInt(System.getenv().getOrDefault("PERFLAB_SMTP_API_PORT", "18025"));

	static final int SMTP_PORT = Integer.parseInt(System.getenv().getOrDefault("PERFLAB_SMTP_PORT", "13025"));

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private Inboxes() {
	}

	/** The raw messages in a recipient's inbox. */
	@SuppressWarnings("unchecked")
	static List<String> messages(String email) {
		try {
			HttpResponse<String> response = CLIENT.send(HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + API_PORT + "/api/user/"
						+ URLEncoder.encode(email, StandardCharsets.UTF_8) + "/messages/INBOX/"))
				.build(), HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() == 404 || response.statusCode() == 400) {
				return List.of();
			}
			List<Map<String, Object>> list = JSON.readValue(response.body(), List.class);
			return list.stream().map(m -> (String) m.get("mimeMessage")).toList();
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException("GreenMail API on " + API_PORT + " (scripts/stack/stack.sh stores starts it)", e);
		}
	}

	/** The messages of one mail in a recipient's inbox. */
	static List<String> of(String email, long mailNo) {
		return messages(email).stream().filter(m -> m.contains("X-Perflab-Mail: " + mailNo + "\r\n")).toList();
	}
}
