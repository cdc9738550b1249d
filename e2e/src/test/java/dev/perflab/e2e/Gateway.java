package dev.perflab.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/** Real HTTP to the running gateway: the only way a client reaches perflab. */
final class Gateway {

	static final String URL = System.getenv().getOrDefault("PERFLAB_GATEWAY_URL",
			"http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_GATEWAY_PORT", "8080"));

	static final JsonMapper JSON = JsonMapper.builder().build();

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.followRedirects(HttpClient.Redirect.NEVER)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private Gateway() {
	}

	static HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create(URL + path)).timeout(Duration.ofSeconds(30));
	}

	static HttpRequest.Builder authed(String path, String token) {
		return request(path).header("Authorization", "Bearer " + token);
	}

	static HttpResponse<String> send(HttpRequest.Builder request) {
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

	static HttpResponse<byte[]> bytes(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	static HttpResponse<String> createLink(String token, String json) {
		return send(authed("/v1/short-links", token).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	static HttpResponse<String> redirect(String code) {
		return send(request("/s/" + code).GET());
	}

	static Map<?, ?> json(HttpResponse<String> response) {
		return JSON.readValue(response.body(), Map.class);
	}
}
