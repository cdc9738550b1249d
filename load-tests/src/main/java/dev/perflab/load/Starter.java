package dev.perflab.load;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Durations;

/**
 * The words that drive runners through their control endpoints (CONTROL), the starter's role in an Indexed Job:
 * {@code start ADDRESS...} waits until every runner answers {@code paused}, then starts them all back to back, so
 * their schedules begin together; {@code stop ADDRESS...} stops each (exit 103 for them). ADDRESS is a runner's
 * host:port (or http://host:port). Exit 0 when every runner did, 1 with a one-line reason otherwise.
 */
final class Starter {

	static final int FAILED = 1;

	private static final ObjectMapper JSON = new ObjectMapper();

	private static final Duration POLL = Duration.ofMillis(200);

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(2))
		.version(HttpClient.Version.HTTP_1_1)
		.build();

	private final PrintStream out;

	private final PrintStream err;

	Starter(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
	}

	/**
	 * {@code start [--timeout D] ADDRESS...}: waits at most D (START_TIMEOUT, 10m) for every runner to be paused,
	 * POSTs /v1/start to all of them at once, prints {@code started ADDRESS} for each and the spread between the
	 * first and the last answer.
	 */
	int start(List<String> words, Map<String, String> environment) throws InterruptedException {
		List<String> addresses = new ArrayList<>();
		String timeout = environment.getOrDefault("START_TIMEOUT", "10m");
		String key = "START_TIMEOUT";
		for (int i = 0; i < words.size(); i++) {
			String word = words.get(i);
			if (word.equals("--timeout") && i + 1 < words.size()) {
				timeout = words.get(++i);
				key = "--timeout";
			}
			else if (word.startsWith("--timeout=")) {
				timeout = word.substring("--timeout=".length());
				key = "--timeout";
			}
			else if (word.startsWith("-")) {
				throw new BadInput(word + ": not an option of start (--timeout D)");
			}
			else {
				addresses.add(word);
			}
		}
		if (addresses.isEmpty()) {
			throw new BadInput("usage: load-tests start [--timeout D] ADDRESS...");
		}
		long deadline = System.nanoTime() + Durations.parse(key, timeout).toNanos();
		for (String address : addresses) {
			String last = "no answer";
			while (true) {
				try {
					HttpResponse<String> status = send(address, "GET", "/v1/status");
					String state = JSON.readTree(status.body()).path("state").asText();
					if (status.statusCode() == 200 && state.equals("paused")) {
						break;
					}
					last = status.statusCode() == 200 ? state : "HTTP " + status.statusCode();
					if (state.equals("running") || state.equals("stopping") || state.equals("done")) {
						return failed("start: " + address + " is " + state + ", not paused");
					}
				}
				catch (IOException ex) {
					last = "no answer: " + ex;
				}
				if (System.nanoTime() >= deadline) {
					return failed("start: " + address + " not paused within " + key + "=" + timeout + " (" + last + ")");
				}
				Thread.sleep(POLL);
			}
		}
		List<CompletableFuture<Long>> answers = new ArrayList<>();
		List<String> refused = new ArrayList<>();
		for (String address : addresses) {
			answers.add(this.http.sendAsync(request(address, "POST", "/v1/start"), HttpResponse.BodyHandlers.ofString())
				.handle((response, error) -> {
					long at = System.nanoTime();
					if (error != null || response.statusCode() != 200) {
						synchronized (refused) {
							refused.add(address + " answered " + (error != null ? error.toString()
									: response.statusCode() + " " + response.body().trim()));
						}
					}
					return at;
				}));
		}
		long first = Long.MAX_VALUE;
		long lastAnswer = Long.MIN_VALUE;
		for (CompletableFuture<Long> answer : answers) {
			long at = answer.join();
			first = Math.min(first, at);
			lastAnswer = Math.max(lastAnswer, at);
		}
		if (!refused.isEmpty()) {
			return failed("start: " + String.join("; ", refused));
		}
		addresses.forEach((address) -> this.out.println("started " + address));
		this.out.println(String.format(Locale.ROOT, "start spread: %.1f ms between the first and the last answer",
				(lastAnswer - first) / 1e6));
		return 0;
	}

	/** {@code stop ADDRESS...}: POSTs /v1/stop to each runner, prints {@code stopped ADDRESS} for each. */
	int stop(List<String> addresses) throws InterruptedException {
		if (addresses.isEmpty() || addresses.stream().anyMatch((a) -> a.startsWith("-"))) {
			throw new BadInput("usage: load-tests stop ADDRESS...");
		}
		List<String> failures = new ArrayList<>();
		for (String address : addresses) {
			try {
				HttpResponse<String> response = send(address, "POST", "/v1/stop");
				if (response.statusCode() == 200) {
					this.out.println("stopped " + address);
				}
				else {
					failures.add(address + " answered " + response.statusCode() + " " + response.body().trim());
				}
			}
			catch (IOException ex) {
				failures.add(address + " answered nothing (" + ex + ")");
			}
		}
		return failures.isEmpty() ? 0 : failed("stop: " + String.join("; ", failures));
	}

	private int failed(String reason) {
		this.err.println("load-tests: " + reason);
		return FAILED;
	}

	private HttpResponse<String> send(String address, String method, String path)
			throws IOException, InterruptedException {
		return this.http.send(request(address, method, path), HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest request(String address, String method, String path) {
		String base = address.contains("://") ? address : "http://" + address;
		URI uri;
		try {
			uri = URI.create(base.replaceAll("/+$", "") + path);
		}
		catch (IllegalArgumentException ex) {
			throw new BadInput(address + ": not host:port");
		}
		return HttpRequest.newBuilder(uri)
			.timeout(Duration.ofSeconds(5))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
	}

}
