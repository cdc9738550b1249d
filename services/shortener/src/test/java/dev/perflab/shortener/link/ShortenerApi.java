package dev.perflab.shortener.link;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Real HTTP to the service under test, the way the gateway calls it (identity headers set). */
record ShortenerApi(int port) {

	static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

	HttpResponse<String> post(String user, String contentType, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri("/v1/short-links"))
			.header("Content-Type", contentType)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		return send(user == null ? request : request.header("X-Perflab-User", user).header("X-Perflab-Office", "1"));
	}

	HttpResponse<String> get(String path, String user) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
		return send(user == null ? request : request.header("X-Perflab-User", user).header("X-Perflab-Office", "1"));
	}

	HttpResponse<String> delete(String path, String user) {
		return send(HttpRequest.newBuilder(uri(path)).DELETE().header("X-Perflab-User", user)
			.header("X-Perflab-Office", "1"));
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
