package dev.perflab.load.notifier;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.perflab.load.lib.Runner;
import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole seed 001 run against a real HTTP server on loopback standing in for the gateway and the SMS endpoint: each
 * caller signs the guestbook of the event created in its own name, and the drain's check is judged.
 */
class NotifierSeed001RunTest {

	@TempDir
	Path dir;

	private final Map<String, String> eventOwners = new ConcurrentHashMap<>();

	private final List<String> signings = new CopyOnWriteArrayList<>();

	private final AtomicInteger events = new AtomicInteger(100);

	@Test
	void eachCallerSignsItsOwnEventAndTheDrainIsChecked() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
		server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
		server.createContext("/", this::answer);
		server.start();
		try {
			String url = "http://127.0.0.1:" + server.getAddress().getPort();
			Map<String, String> env = Map.of("BASE_URL", url, "SMS_SINK_URL", url, "CALLER_TOKENS", "t1 t2", "SUMMARY_DIR",
					this.dir.toString(), "TESTID", "seed001-test", "LATE_AFTER", "60s");   // exact counts on a busy machine
			Runner.run(new NotifierSeed001(),
					Settings.of(env, List.of("RATE=4", "PEAK=4", "STAGE=2s")));
			JsonNode m = new ObjectMapper()
				.readTree(Files.readString(this.dir.resolve("notifier-seed001-summary.json")))
				.path("metrics");
			// what this run is about is who signs where and the drain's check, not whether the loopback server's
			// latency met the SLO on a busy machine (the exit status says that): no request may fail
			assertThat(m.path("http_req_failed").path("values").path("rate").asDouble()).isZero();
			// 4/s for 2 s, 4/s for the 1 s step and the 1 s after it
			assertThat(this.signings).hasSize(16);
			assertThat(this.eventOwners.values()).containsExactlyInAnyOrder("Bearer t1", "Bearer t2");
			for (String signing : this.signings) {
				String[] eventAndCaller = signing.split(" ", 2);
				assertThat(this.eventOwners.get(eventAndCaller[0])).isEqualTo(eventAndCaller[1]);
			}
			assertThat(this.signings.stream().map((s) -> s.split(" ", 2)[1])).contains("Bearer t1", "Bearer t2");
			assertThat(m.path("notifier_signed").path("values").path("count").asLong()).isEqualTo(16);
			assertThat(m.path("checks{check:no SMS delivered twice,scenario:main}").path("values").path("passes").asLong())
				.isEqualTo(1);
		}
		finally {
			server.stop(0);
		}
	}

	private void answer(HttpExchange exchange) throws IOException {
		String path = exchange.getRequestURI().getPath();
		String caller = exchange.getRequestHeaders().getFirst("Authorization");
		if (path.equals("/v1/events")) {
			String id = Integer.toString(this.events.incrementAndGet());
			this.eventOwners.put(id, caller);
			send(exchange, 201, "{\"id\":" + id + "}");
		}
		else if (path.matches("/v1/events/\\d+/guestbook")) {
			this.signings.add(path.split("/")[3] + " " + caller);
			send(exchange, 201, "{\"notification_id\":1}");
		}
		else if (path.equals("/count")) {
			send(exchange, 200, "{\"deliveries\":5,\"messages\":5,\"duplicates\":0,\"refused\":0}");
		}
		else {
			send(exchange, 404, "{}");
		}
	}

	private static void send(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
