package dev.perflab.load.verdict;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Prometheus' HTTP query API as the verdict asks it: instant queries, at a time or now. A question it could not
 * answer (unreachable, an answer other than 200, a body that is not its JSON) is {@link Unanswered}, naming the URL.
 */
final class Prometheus {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final String url;

	/** {@code url}: Prometheus' base URL, without a trailing slash. */
	Prometheus(String url) {
		this.url = url;
	}

	String url() {
		return this.url;
	}

	/** The result of {@code expr} evaluated at {@code time} (Unix seconds; null: now): vector or matrix items. */
	List<JsonNode> query(String expr, Double time) throws Unanswered, InterruptedException {
		String at = time == null ? "" : "&time=" + seconds(time);
		URI uri = URI.create(this.url + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8) + at);
		HttpResponse<String> response;
		try {
			response = this.http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new Unanswered("Prometheus at " + this.url + " could not be asked: " + describe(ex));
		}
		if (response.statusCode() != 200) {
			throw new Unanswered("Prometheus at " + this.url + " answered " + response.statusCode() + " to " + expr
					+ ": " + error(response.body()));
		}
		try {
			JsonNode result = JSON.readTree(response.body()).path("data").path("result");
			if (!result.isArray()) {
				throw new IOException("no data.result");
			}
			List<JsonNode> items = new ArrayList<>();
			result.forEach(items::add);
			return items;
		}
		catch (IOException ex) {
			throw new Unanswered("Prometheus at " + this.url + " answered " + expr + " with no result: " + describe(ex));
		}
	}

	/** The first value of {@code expr} at {@code time}, or null when the result is empty. */
	Double scalar(String expr, double time) throws Unanswered, InterruptedException {
		List<JsonNode> result = query(expr, time);
		return result.isEmpty() ? null : number(result.get(0).path("value").path(1).asText());
	}

	/** The times of the first and the last sample of a range query's matrix, or null when it has none. */
	double[] span(String rangeExpr) throws Unanswered, InterruptedException {
		double[] span = null;
		for (JsonNode series : query(rangeExpr, null)) {
			for (JsonNode sample : series.path("values")) {
				double t = sample.path(0).asDouble();
				span = span == null ? new double[] { t, t } : new double[] { Math.min(span[0], t), Math.max(span[1], t) };
			}
		}
		return span;
	}

	/** A sample value as Prometheus writes it ({@code 12}, {@code 0.25}, {@code NaN}, {@code +Inf}). */
	static double number(String value) {
		return switch (value) {
			case "+Inf" -> Double.POSITIVE_INFINITY;
			case "-Inf" -> Double.NEGATIVE_INFINITY;
			default -> Double.parseDouble(value);
		};
	}

	/** A Unix time as the API takes it, in plain digits. */
	static String seconds(double time) {
		return BigDecimal.valueOf(time).toPlainString();
	}

	private static String error(String body) {
		try {
			JsonNode error = JSON.readTree(body).path("error");
			if (error.isTextual()) {
				return error.asText();
			}
		}
		catch (IOException ex) {
			// not Prometheus' JSON: its start below
		}
		String text = body.strip().replaceAll("\\s+", " ");
		return text.length() > 200 ? text.substring(0, 200) + "..." : text;
	}

	/** The first message down the causes, or what the causes' kinds say (HttpClient's connect failures have none). */
	private static String describe(Exception ex) {
		Throwable root = ex;
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
				return cause.getMessage() + " (" + ex.getClass().getSimpleName() + ")";
			}
			root = cause;
		}
		if (root instanceof UnresolvedAddressException) {
			return "its host name does not resolve";
		}
		if (ex instanceof ConnectException) {
			return "no connection (refused, or nothing listening there)";
		}
		return ex.getClass().getSimpleName();
	}

	/** Prometheus could not be asked, or gave no answer to read. */
	static final class Unanswered extends Exception {

		Unanswered(String message) {
			super(message);
		}

	}

}
