package dev.perflab.mail;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

/** Real HTTP to the mail service under test, with the identity the gateway would sign (office 1, audience mail). */
public record MailApi(int port) {

	static final HttpClient CLIENT = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

	public static final JsonMapper JSON = JsonMapper.builder().build();

	public HttpRequest.Builder as(String user, String path) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
		return user == null ? request : request.header(Identity.HEADER, TestIdentity.user(user, "1", "mail"));
	}

	public HttpResponse<String> get(String user, String path) {
		return send(as(user, path).GET());
	}

	public HttpResponse<byte[]> bytes(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException(e);
		}
	}

	public HttpResponse<String> post(String user, String path, String contentType, String body) {
		return send(as(user, path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	public HttpResponse<String> send(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException(e);
		}
	}

	public static Map<?, ?> json(HttpResponse<String> response) {
		return JSON.readValue(response.body(), Map.class);
	}
}
