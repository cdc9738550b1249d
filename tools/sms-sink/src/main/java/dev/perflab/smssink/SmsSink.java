package dev.perflab.smssink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.json.JsonMapper;

/**
 * An SMS provider of the project's own, on 127.0.0.1: {@code POST /sms} with an {@code Idempotency-Key} header (the
 * notification's message id) answers after {@code latency} (seed 001's provider took 0.5 s), or at once with a 503 at
 * {@code failureRate} (1: a provider that is down); every accepted delivery is counted per message id, so a message sent twice shows as a
 * duplicate. {@code GET /count}, {@code GET /deliveries} and {@code GET /deliveries/<id>} answer what arrived;
 * {@code POST /settings?latency-ms=&failure-rate=} changes the behaviour while running; {@code POST /reset} forgets
 * the counts. One virtual thread per request: a slow provider costs no platform thread.
 *
 * <pre>java -jar sms-sink-exec.jar PORT [--latency-ms=500] [--failure-rate=0]</pre>
 */
public final class SmsSink implements AutoCloseable {

	public static final String MESSAGE_ID = "Idempotency-Key";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

	private final AtomicLong deliveries = new AtomicLong();

	private final AtomicLong refused = new AtomicLong();

	private volatile Duration latency;

	private volatile double failureRate;

	private volatile Consumer<String> listener = id -> {
	};

	private volatile HttpServer server;

	private int port;

	private SmsSink(Duration latency, double failureRate) {
		this.latency = latency;
		this.failureRate = failureRate;
	}

	/** Starts a sink on 127.0.0.1:{@code port} (0: any free port). */
	public static SmsSink start(int port, Duration latency, double failureRate) {
		SmsSink sink = new SmsSink(latency, failureRate);
		sink.port = port;
		sink.up();
		return sink;
	}

	public static void main(String[] args) {
		int port = 18086;
		Duration latency = Duration.ofMillis(500);
		double failureRate = 0;
		for (String arg : args) {
			if (arg.startsWith("--latency-ms=")) {
				latency = Duration.ofMillis(Long.parseLong(arg.substring("--latency-ms=".length())));
			}
			else if (arg.startsWith("--failure-rate=")) {
				failureRate = Double.parseDouble(arg.substring("--failure-rate=".length()));
			}
			else {
				port = Integer.parseInt(arg);
			}
		}
		SmsSink sink = start(port, latency, failureRate);
		System.out.printf("sms-sink listening on 127.0.0.1:%d, latency %d ms, failure rate %s%n", sink.port(),
				latency.toMillis(), failureRate);
	}

	/** Listens again on the same port after {@link #down()}; the counts are kept. */
	public synchronized void up() {
		if (server != null) {
			return;
		}
		try {
			HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
			http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
			http.createContext("/sms", this::sms);
			http.createContext("/count", this::count);
			http.createContext("/deliveries", this::deliveries);
			http.createContext("/settings", this::settings);
			http.createContext("/reset", this::reset);
			http.start();
			port = http.getAddress().getPort();
			server = http;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** Stops listening: callers get a refused connection, as from a provider that is down. */
	public synchronized void down() {
		if (server != null) {
			server.stop(0);
			server = null;
		}
	}

	@Override
	public void close() {
		down();
	}

	public int port() {
		return port;
	}

	public String url() {
		return "http://127.0.0.1:" + port + "/sms";
	}

	/** How often this message id was delivered (accepted with a 200). */
	public int count(String messageId) {
		AtomicInteger count = counts.get(messageId);
		return count == null ? 0 : count.get();
	}

	/** Accepted deliveries, duplicates included. */
	public long deliveries() {
		return deliveries.get();
	}

	/** Message ids delivered more than once. */
	public long duplicates() {
		return counts.values().stream().filter(c -> c.get() > 1).count();
	}

	public void latency(Duration value) {
		latency = value;
	}

	public void failureRate(double value) {
		failureRate = value;
	}

	/** Called with each message id at the moment it arrives, before the answer and before it is counted. */
	public void onDelivery(Consumer<String> value) {
		listener = value;
	}

	private void sms(HttpExchange exchange) throws IOException {
		try (exchange; InputStream body = exchange.getRequestBody()) {
			body.readAllBytes();
			if (!"POST".equals(exchange.getRequestMethod())) {
				answer(exchange, 405, Map.of("error", "POST only"));
				return;
			}
			String id = exchange.getRequestHeaders().getFirst(MESSAGE_ID);
			if (id == null || id.isBlank() || id.length() > 200) {
				answer(exchange, 400, Map.of("error", "an " + MESSAGE_ID + " header is required"));
				return;
			}
			listener.accept(id);
			// a provider that is down refuses at once: a 30 s outage costs the sender retries, not 0.5 s per refusal
			if (failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate) {
				refused.incrementAndGet();
				answer(exchange, 503, Map.of("error", "provider unavailable"));
				return;
			}
			sleep(latency);
			int n = counts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
			deliveries.incrementAndGet();
			answer(exchange, 200, delivery(id, n));
		}
	}

	private void count(HttpExchange exchange) throws IOException {
		try (exchange) {
			Map<String, Object> count = new LinkedHashMap<>();
			count.put("deliveries", deliveries.get());
			count.put("messages", counts.size());
			count.put("duplicates", duplicates());
			count.put("refused", refused.get());
			answer(exchange, 200, count);
		}
	}

	private void deliveries(HttpExchange exchange) throws IOException {
		try (exchange) {
			String path = exchange.getRequestURI().getPath();
			if (path.startsWith("/deliveries/")) {
				String id = URLDecoder.decode(path.substring("/deliveries/".length()), StandardCharsets.UTF_8);
				answer(exchange, 200, delivery(id, count(id)));
				return;
			}
			List<Map<String, Object>> all = new ArrayList<>();
			new TreeMap<>(counts).forEach((id, count) -> all.add(delivery(id, count.get())));
			answer(exchange, 200, all);
		}
	}

	private void settings(HttpExchange exchange) throws IOException {
		try (exchange) {
			String query = exchange.getRequestURI().getQuery();
			Duration newLatency = latency;
			double newFailureRate = failureRate;
			try {
				for (String pair : query == null ? new String[0] : query.split("&")) {
					String[] kv = pair.split("=", 2);
					if (kv.length == 2 && kv[0].equals("latency-ms")) {
						newLatency = Duration.ofMillis(Long.parseLong(kv[1]));
					}
					else if (kv.length == 2 && kv[0].equals("failure-rate")) {
						newFailureRate = Double.parseDouble(kv[1]);
					}
				}
			}
			catch (NumberFormatException e) {
				newFailureRate = Double.NaN;
			}
			if (newLatency.isNegative() || !(newFailureRate >= 0 && newFailureRate <= 1)) {
				answer(exchange, 400, Map.of("error", "latency-ms is an integer from 0, failure-rate a number from 0 to 1"));
				return;
			}
			latency = newLatency;
			failureRate = newFailureRate;
			answer(exchange, 200, Map.of("latency_ms", latency.toMillis(), "failure_rate", failureRate));
		}
	}


	private void reset(HttpExchange exchange) throws IOException {
		try (exchange) {
			counts.clear();
			deliveries.set(0);
			refused.set(0);
			answer(exchange, 200, Map.of());
		}
	}

	private static Map<String, Object> delivery(String id, int count) {
		Map<String, Object> delivery = new LinkedHashMap<>();
		delivery.put("message_id", id);
		delivery.put("count", count);
		return delivery;
	}

	private static void answer(HttpExchange exchange, int status, Object body) throws IOException {
		byte[] bytes = JSON.writeValueAsBytes(body);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
