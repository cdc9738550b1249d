package dev.perflab.load.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.http.DslHttpSampler;

import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * What both reliability cases send and read as their k6 scripts did: requests named as k6 tagged them, with 30 s
 * timeouts, sent as the iteration's VU; JSON bodies; settings that are numbers; and the setup's reads of a whole body.
 */
final class Requests {

	/** Each request's bound, as the k6 scripts' {@code timeout: '30s'}. */
	static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final HttpClient HTTP = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(10))
		.followRedirects(HttpClient.Redirect.NEVER)
		.build();

	private Requests() {
	}

	/** GET {@code baseUrl + path(vu)}, named {@code name}, as no one in particular (no Authorization). */
	static DslHttpSampler get(String name, String baseUrl, Function<Vu, String> path) {
		return httpSampler(name, (s) -> baseUrl + path.apply(Vu.of(s.vars))).connectionTimeout(TIMEOUT)
			.responseTimeout(TIMEOUT);
	}

	/** The request sent as its VU's caller. */
	static DslHttpSampler asCaller(DslHttpSampler request) {
		return request.header("Authorization", (s) -> "Bearer " + Vu.of(s.vars).token);
	}

	/** The request POSTed with the JSON of {@code body(vu)}. */
	static DslHttpSampler json(DslHttpSampler request, Function<Vu, Object> body) {
		return request.post((s) -> json(body.apply(Vu.of(s.vars))), ContentType.APPLICATION_JSON);
	}

	static String json(Object value) {
		try {
			return JSON.writeValueAsString(value);
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A JSON object of {@code key, value, ...} in that order. */
	static Map<String, Object> object(Object... keysAndValues) {
		Map<String, Object> object = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			object.put((String) keysAndValues[i], keysAndValues[i + 1]);
		}
		return object;
	}

	/**
	 * A guest's phone number of the VU's own, per its iteration and the time: the notifier limits notifications per
	 * recipient and hour.
	 */
	static String guestPhone(Vu vu) {
		long n = (System.currentTimeMillis() * 7 + vu.number * 1000L + vu.iteration()) % 100_000_000L;
		return String.format("010%08d", n);
	}

	/** A number setting ({@code DOWN_AT=5}, {@code BOUND_MS=2500.5}), or its default. */
	static double number(Settings settings, String key, double fallback) {
		String value = settings.text(key, "");
		if (value.isEmpty()) {
			return fallback;
		}
		try {
			double number = Double.parseDouble(value);
			if (Double.isFinite(number)) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// refused below
		}
		throw new BadInput(key + "=" + value + ": not a number");
	}

	/** START_MS: the run's time zero in ms since the epoch, shared with the script that brings the fault; else now. */
	static long startMs(Settings settings) {
		return Math.round(number(settings, "START_MS", System.currentTimeMillis()));
	}

	/** An answer of the setup's own, its body as bytes. */
	record Whole(int status, byte[] body) {
	}

	/** GET {@code path} with {@code headers} and read its whole body (a long answer: 60 s at most). */
	static Whole whole(String baseUrl, String path, Map<String, String> headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60));
		headers.forEach(request::header);
		try {
			HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
			return new Whole(response.statusCode(), response.body());
		}
		catch (IOException ex) {
			throw new SetupFailed(baseUrl + path + " answered nothing (" + ex + "): is the system up (make up)?");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new SetupFailed("interrupted during setup");
		}
	}

}
