package dev.perflab.load.lib;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A run's control endpoint (CONTROL): a paused run waits, set up, for POST /v1/start; POST /v1/stop ends it as at
 * its schedule's end, with its summary and Prometheus' last push, and exit 103.
 */
class ControlTest {

	private static final Pattern LISTENING = Pattern.compile("control: listening on (\\S+)");

	private static final ObjectMapper JSON = new ObjectMapper();

	private final HttpClient http = HttpClient.newHttpClient();

	private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

	private PrintStream stdout;

	@TempDir
	Path dir;

	@BeforeEach
	void captureStdout() {
		this.stdout = System.out;
		System.setOut(new PrintStream(new Tee(this.stdout, this.printed), true, StandardCharsets.UTF_8));
	}

	@AfterEach
	void restoreStdout() {
		System.setOut(this.stdout);
	}

	@Test
	void aPausedRunWaitsSetUpForItsStart() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			CompletableFuture<Integer> run = start(server, new ProbeScenario(10, 10), "PAUSED=true", "DURATION=1s",
					"WARMUP=0s");
			String address = address();
			awaitState(address, "paused");
			JsonNode status = get(address, "/v1/status");
			assertThat(status.path("testid").asText()).isEqualTo("control-test");
			assertThat(status.path("runner").isNull()).isTrue();
			// longer than the lead-in: a paused run sends nothing
			Thread.sleep(3000);
			assertThat(server.received.get()).isZero();
			assertThat(post(address, "/v1/start").statusCode()).isEqualTo(200);
			assertThat(post(address, "/v1/start").statusCode()).isEqualTo(409);
			assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(Runner.PASSED);
			assertThat(count(summary(), "iterations")).isEqualTo(10);
			assertThat(server.received.get()).isEqualTo(20);
			// the schedule began at the start, not when the engine was set up: the pause is not in the run's length
			assertThat(summary().path("state").path("testRunDurationMs").asLong()).isLessThan(4500);
		}
	}

	@Test
	void aStopEndsTheRunAsAtItsEndWithItsSummaryAndLastPushThenExit103() throws Exception {
		AtomicInteger pushes = new AtomicInteger();
		HttpServer prometheus = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
		prometheus.createContext("/api/v1/write", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			pushes.incrementAndGet();
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		prometheus.start();
		try (LocalServer server = new LocalServer(300)) {
			CompletableFuture<Integer> run = start(server, new ProbeScenario(10, 50), "DURATION=60s", "WARMUP=0s",
					"PROMETHEUS_RW_URL=http://127.0.0.1:" + prometheus.getAddress().getPort() + "/api/v1/write");
			String address = address();
			while (server.received.get() < 6) {
				Thread.sleep(20);
			}
			assertThat(post(address, "/v1/stop").statusCode()).isEqualTo(200);
			assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(Runner.STOPPED);
			JsonNode summary = summary();
			JsonNode m = summary.path("metrics");
			assertThat(summary.path("perflab").path("stoppedBy").asText()).isEqualTo("control");
			// what was in flight at the stop finished (300 ms a request): every iteration counted whole
			assertThat(count(summary, "iterations")).isBetween(3L, 100L);
			assertThat(count(summary, "interrupted_iterations")).isZero();
			assertThat(count(summary, "http_reqs")).isEqualTo(2 * count(summary, "iterations"))
				.isEqualTo(server.received.get());
			assertThat(m.path("http_req_failed{scenario:main}").path("thresholds").path("rate<0.01").path("ok").asBoolean())
				.isTrue();
			assertThat(pushes.get()).isPositive();
			assertThat(this.printed.toString(StandardCharsets.UTF_8)).contains("stopped by control");
		}
		finally {
			prometheus.stop(0);
		}
	}

	@Test
	void aRunStoppedWhilePausedSendsNothingAndWritesItsSummary() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			CompletableFuture<Integer> run = start(server, new ProbeScenario(10, 10), "PAUSED=true", "DURATION=30s");
			String address = address();
			awaitState(address, "paused");
			assertThat(post(address, "/v1/stop").statusCode()).isEqualTo(200);
			assertThat(run.get(30, TimeUnit.SECONDS)).isEqualTo(Runner.STOPPED);
			assertThat(server.received.get()).isZero();
			assertThat(count(summary(), "http_reqs")).isZero();
		}
	}

	@Test
	void aPausedRunNobodyStartsEndsWithAClearError() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			CompletableFuture<Integer> run = start(server, new ProbeScenario(10, 10), "PAUSED=true", "PAUSE_TIMEOUT=1s");
			Throwable failure = catchThrowable(() -> run.get(30, TimeUnit.SECONDS));
			assertThat(failure).hasCauseInstanceOf(SetupFailed.class)
				.hasMessageContaining("PAUSE_TIMEOUT=1s and no POST /v1/start came");
			assertThat(server.received.get()).isZero();
		}
	}

	@Test
	void answersOnlyItsOwnMethodsAndPaths() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			CompletableFuture<Integer> run = start(server, new ProbeScenario(10, 10), "PAUSED=true", "RUNNER=eu-1");
			String address = address();
			awaitState(address, "paused");
			assertThat(get(address, "/v1/status").path("runner").asText()).isEqualTo("eu-1");
			assertThat(send(address, "GET", "/v1/start").statusCode()).isEqualTo(405);
			assertThat(send(address, "POST", "/v1/status").statusCode()).isEqualTo(405);
			assertThat(send(address, "GET", "/v1/nothing").statusCode()).isEqualTo(404);
			post(address, "/v1/stop");
			assertThat(run.get(30, TimeUnit.SECONDS)).isEqualTo(Runner.STOPPED);
		}
	}

	@Test
	void keptSamplesAreServedOnceTheRunIsOverUntilReleased() throws Exception {
		Path jtl = this.dir.resolve("samples.jtl");
		try (LocalServer server = new LocalServer(0)) {
			CompletableFuture<Integer> run = start(server, new ProbeScenario(10, 10), "PAUSED=true", "DURATION=1s",
					"WARMUP=0s", "JTL=" + jtl, "KEEP_SAMPLES=2m");
			String address = address();
			awaitState(address, "paused");
			assertThat(send(address, "GET", "/v1/samples").statusCode()).as("before the run is over").isEqualTo(409);
			post(address, "/v1/start");
			awaitState(address, "done");
			HttpResponse<String> samples = awaitSamples(address);
			assertThat(samples.body()).isEqualTo(Files.readString(jtl));
			assertThat(samples.body().lines().count()).as("the header and every sample").isGreaterThan(5);
			assertThat(run).as("kept until released").isNotDone();
			assertThat(post(address, "/v1/release").statusCode()).isEqualTo(200);
			assertThat(run.get(30, TimeUnit.SECONDS)).isEqualTo(Runner.PASSED);
		}
	}

	@Test
	void refusesToKeepSamplesItDoesNotWrite() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			assertThat(catchThrowable(() -> start(server, new ProbeScenario(10, 10), "KEEP_SAMPLES=1m").join()))
				.hasRootCauseInstanceOf(BadInput.class)
				.rootCause()
				.hasMessage("KEEP_SAMPLES=1m: needs JTL (the samples) and CONTROL (where they are served)");
		}
	}

	/** GET /v1/samples once the runner keeps them (it answers 409 between the run's end and then). */
	private HttpResponse<String> awaitSamples(String address) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		HttpResponse<String> answer = send(address, "GET", "/v1/samples");
		while (answer.statusCode() == 409 && System.nanoTime() < deadline) {
			Thread.sleep(100);
			answer = send(address, "GET", "/v1/samples");
		}
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		return answer;
	}

	@Test
	void refusesAControlAddressItCannotListenOn() throws Exception {
		HttpServer taken = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1);
		try {
			String control = "127.0.0.1:" + taken.getAddress().getPort();
			Settings settings = Settings.of(Map.of("CONTROL", control), List.of());
			assertThat(catchThrowable(() -> Runner.run(new ProbeScenario(1, 1), settings))).isInstanceOf(BadInput.class)
				.hasMessageStartingWith("CONTROL=" + control + ": cannot listen there");
		}
		finally {
			taken.stop(0);
		}
	}

	/** A run on a thread of its own, its control endpoint on a free port of loopback. */
	private CompletableFuture<Integer> start(LocalServer server, Scenario scenario, String... settings) {
		Map<String, String> env = new HashMap<>();
		env.put("BASE_URL", server.url());
		env.put("TOKEN", "t0");
		env.put("SUMMARY_DIR", this.dir.toString());
		env.put("TESTID", "control-test");
		env.put("LATE_AFTER", "60s");
		env.put("CONTROL", "127.0.0.1:0");
		Settings parsed = Settings.of(env, List.of(settings));
		return CompletableFuture.supplyAsync(() -> {
			try {
				return Runner.run(scenario, parsed);
			}
			catch (IOException | InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	/** The address the run printed once its endpoint listened. */
	private String address() throws InterruptedException {
		for (int i = 0; i < 3000; i++) {
			Matcher m = LISTENING.matcher(this.printed.toString(StandardCharsets.UTF_8));
			if (m.find()) {
				return m.group(1);
			}
			Thread.sleep(10);
		}
		throw new AssertionError("the run printed no control address: " + this.printed);
	}

	private void awaitState(String address, String state) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		String last = null;
		while (System.nanoTime() < deadline) {
			last = get(address, "/v1/status").path("state").asText();
			if (last.equals(state)) {
				return;
			}
			Thread.sleep(20);
		}
		throw new AssertionError(address + " is " + last + ", not " + state);
	}

	private JsonNode get(String address, String path) throws IOException, InterruptedException {
		HttpResponse<String> response = send(address, "GET", path);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
		return JSON.readTree(response.body());
	}

	private HttpResponse<String> post(String address, String path) throws IOException, InterruptedException {
		return send(address, "POST", path);
	}

	private HttpResponse<String> send(String address, String method, String path)
			throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + address + path))
			.timeout(Duration.ofSeconds(10))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private JsonNode summary() throws IOException {
		return JSON.readTree(Files.readString(this.dir.resolve("probe-summary.json")));
	}

	private static long count(JsonNode summary, String metric) {
		return summary.path("metrics").path(metric).path("values").path("count").asLong();
	}

	/** Writes to two streams: what the run prints is shown and read. */
	private static final class Tee extends OutputStream {

		private final OutputStream first;

		private final OutputStream second;

		Tee(OutputStream first, OutputStream second) {
			this.first = first;
			this.second = second;
		}

		@Override
		public synchronized void write(int b) throws IOException {
			this.first.write(b);
			this.second.write(b);
		}

		@Override
		public synchronized void write(byte[] b, int off, int len) throws IOException {
			this.first.write(b, off, len);
			this.second.write(b, off, len);
		}

		@Override
		public void flush() throws IOException {
			this.first.flush();
		}

	}

}
