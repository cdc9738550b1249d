package dev.perflab.notifier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

/** Real HTTP to the notifier under test, as the gateway calls it (a user's identity signed for notifier). */
record NotifierApi(int port) {

	static final JsonMapper JSON = JsonMapper.builder().build();

	static final HttpClient CLIENT = HttpClient.newHttpClient();

	static final int SMTP_API_PORT = Integer.parseInt(System.getenv().getOrDefault("PERFLAB_SMTP_API_PORT", "18025"));

	HttpResponse<String> post(String path, String office, String body) {
		return post(path, office, "alice", body);
	}

	/** As this user of this office. */
	HttpResponse<String> post(String path, String office, String user, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		return send(as(office, user, request));
	}

	HttpResponse<String> get(String path, String office) {
		return send(as(office, "alice", HttpRequest.newBuilder(uri(path)).GET()));
	}

	long event(String office, String title) {
		return id(expect(post("/v1/events", office, json(Map.of("title", title))), 201));
	}

	HttpResponse<String> sign(String office, long event, String name, String phone, String message) {
		return post("/v1/events/" + event + "/guestbook", office,
				json(Map.of("name", name, "phone", phone, "message", message)));
	}

	/** A signing by this user of this office. */
	HttpResponse<String> signAs(String office, String user, long event, String phone) {
		return post("/v1/events/" + event + "/guestbook", office, user,
				json(Map.of("name", "Kim", "phone", phone, "message", "congratulations")));
	}

	/** A sign-up by this user of this office. */
	HttpResponse<String> signUpAs(String office, String user, String email) {
		return post("/v1/members", office, user, json(Map.of("email", email, "name", "Lee", "password", "correct horse")));
	}

	/** Signs and answers the notification id. */
	long signed(String office, long event, String phone) {
		return ((Number) map(expect(sign(office, event, "Kim", phone, "congratulations"), 201)).get("notification_id"))
			.longValue();
	}

	String status(String office, long notification) {
		return (String) map(expect(get("/v1/notifications/" + notification, office), 200)).get("status");
	}

	static HttpResponse<String> expect(HttpResponse<String> response, int status) {
		if (response.statusCode() != status) {
			throw new AssertionError("expected " + status + ": " + response.statusCode() + " " + response.body());
		}
		return response;
	}

	static long id(HttpResponse<String> response) {
		return ((Number) map(response).get("id")).longValue();
	}

	static Map<?, ?> map(HttpResponse<String> response) {
		return JSON.readValue(response.body(), Map.class);
	}

	static String json(Object value) {
		return JSON.writeValueAsString(value);
	}

	/** The raw messages GreenMail (scripts/stack/stack.sh stores) holds for this address that carry this notification. */
	@SuppressWarnings("unchecked")
	static List<String> mails(String email, long notification) {
		try {
			HttpResponse<String> response = CLIENT.send(HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + SMTP_API_PORT + "/api/user/"
						+ URLEncoder.encode(email, StandardCharsets.UTF_8) + "/messages/INBOX/"))
				.build(), HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() == 404 || response.statusCode() == 400) {
				return List.of();
			}
			List<Map<String, Object>> list = JSON.readValue(response.body(), List.class);
			return list.stream().map(m -> (String) m.get("mimeMessage"))
				.filter(m -> m.contains("X-Perflab-Notification: " + notification + "\r\n")).toList();
		}
		catch (IOException e) {
			throw new UncheckedIOException("GreenMail API on " + SMTP_API_PORT + " (scripts/stack/stack.sh stores starts it)", e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	private HttpRequest.Builder as(String office, String user, HttpRequest.Builder request) {
		return office == null ? request : request.header(Identity.HEADER, TestIdentity.user(user, office, "notifier"));
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}
}
