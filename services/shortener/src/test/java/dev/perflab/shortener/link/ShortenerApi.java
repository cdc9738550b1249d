package dev.perflab.shortener.link;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

/** Real HTTP to the service under test, the way the gateway calls it (a user's identity signed for the shortener). */
record ShortenerApi(int port) {

	static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

	HttpResponse<String> post(String user, String contentType, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri("/v1/short-links"))
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		return send(as(user, request));
	}

	/** A JSON POST of a link as a user of that office. */
	HttpResponse<String> create(String user, String office, String body) {
		return send(HttpRequest.newBuilder(uri("/v1/short-links"))
			.header("Content-Type", "application/json")
			.header(Identity.HEADER, TestIdentity.user(user, office, "shortener"))
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	HttpResponse<String> get(String path, String user) {
		return send(as(user, HttpRequest.newBuilder(uri(path)).GET()));
	}

	HttpResponse<String> delete(String path, String user) {
		return send(as(user, HttpRequest.newBuilder(uri(path)).DELETE()));
	}

	/** A call as the same login in another office: someone else. */
	HttpResponse<String> asOfOffice(String method, String path, String user, String office) {
		return send(HttpRequest.newBuilder(uri(path))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.header(Identity.HEADER, TestIdentity.user(user, office, "shortener")));
	}

	private static HttpRequest.Builder as(String user, HttpRequest.Builder request) {
		return user == null ? request : request.header(Identity.HEADER, TestIdentity.user(user, "1", "shortener"));
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private static HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}
}
