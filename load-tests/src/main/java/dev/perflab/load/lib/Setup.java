package dev.perflab.load.lib;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * The requests a scenario makes before its load (k6's setup()): a route to read, an event to sign, the mails to
 * open. They are not load and are not counted; any failure stops the run before it starts.
 */
public final class Setup {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(10))
		.followRedirects(HttpClient.Redirect.NEVER)
		.build();

	private final String baseUrl;

	public Setup(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	/** An answer: status, a header, the body as JSON. */
	public record Reply(int status, HttpResponse<String> response) {

		public JsonNode json(String field) {
			try {
				return JSON.readTree(this.response.body()).path(field);
			}
			catch (IOException ex) {
				return MissingNode.getInstance();
			}
		}

		public String body() {
			return this.response.body();
		}

	}

	public Reply get(String path, Map<String, String> headers) {
		return send(path, "GET", null, headers);
	}

	public Reply post(String path, String json, Map<String, String> headers) {
		return send(path, "POST", json, headers);
	}

	/**
	 * Fails the run unless the gateway answers {@code path} and routes it to a service (actuator is not on the public
	 * port, so a real route is probed; a 5xx or no answer means the service is down or unroutable).
	 */
	public Reply requireService(String path, Map<String, String> headers) {
		Reply reply = get(path, headers);
		if (reply.status() >= 500) {
			throw new SetupFailed(this.baseUrl + path + " answered " + reply.status() + ": is the system up (make up)?");
		}
		return reply;
	}

	private Reply send(String path, String method, String json, Map<String, String> headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.baseUrl + path))
			.timeout(Duration.ofSeconds(60))
			.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
		if (json != null) {
			request.header("Content-Type", "application/json");
		}
		headers.forEach(request::header);
		try {
			HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
			return new Reply(response.statusCode(), response);
		}
		catch (IOException ex) {
			throw new SetupFailed(this.baseUrl + path + " answered nothing (" + ex + "): is the system up (make up)?");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SetupFailed("interrupted during setup");
		}
	}

}
