package dev.perflab.load.reliability;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP server on loopback that answers as perflab's services do through the gateway, for the reliability
 * cases: links, routes (a points answer of 20,000 points), events and their guestbook, mailboxes, mails (a 712 KB
 * mail listed, its EML), sends and their delivery; an unknown id 404 problem+json. From {@code from} until
 * {@code until} (ms since the epoch) it answers everything with {@code status}: 503 is a service away (problem+json
 * with Retry-After), another a service failing. It echoes X-Request-Id, as the gateway does, and keeps what it got.
 */
final class FakeGateway implements AutoCloseable {

	/** The size of the listed mail; its EML is shorter, as only the setup's whole read and the streams compare it. */
	static final int EML_BYTES = 50_000;

	private static final byte[] POINTS;

	static {
		StringBuilder points = new StringBuilder("[");
		for (int i = 0; i < ReliabilityCrash.POINTS; i++) {
			points.append(i == 0 ? "0" : ",0");
		}
		POINTS = points.append(']').toString().getBytes(StandardCharsets.US_ASCII);
	}

	private final HttpServer server;

	private final long from;

	private final long until;

	private final int status;

	private final AtomicInteger ids = new AtomicInteger(100);

	/** Every request: {@code <method> <path> <X-Request-Id or -> <Authorization or ->}. */
	final Queue<String> received = new ConcurrentLinkedQueue<>();

	/** Requests to the link's target: none, when redirects are not followed. */
	final AtomicInteger followed = new AtomicInteger();

	FakeGateway(long from, long until, int status) throws IOException {
		this.from = from;
		this.until = until;
		this.status = status;
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
		this.server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
		this.server.createContext("/", this::answer);
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** What was received, in order. */
	List<String> received() {
		return List.copyOf(this.received);
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			String method = exchange.getRequestMethod();
			String path = exchange.getRequestURI().getPath();
			String id = exchange.getRequestHeaders().getFirst("X-Request-Id");
			String auth = exchange.getRequestHeaders().getFirst("Authorization");
			this.received.add(method + " " + exchange.getRequestURI() + " " + (id == null ? "-" : id) + " "
					+ (auth == null ? "-" : auth.replace(' ', '_')));
			if (id != null) {
				exchange.getResponseHeaders().add("X-Request-Id", id);
			}
			long now = System.currentTimeMillis();
			if (now >= this.from && now < this.until) {
				if (this.status == 503) {
					exchange.getResponseHeaders().add("Retry-After", "1");
					send(exchange, 503, "application/problem+json", "{\"title\":\"Service Unavailable\"}");
				}
				else {
					send(exchange, this.status, "application/json", "{\"error\":\"Internal Server Error\"}");
				}
				return;
			}
			String[] p = path.split("/");
			int n = this.ids.incrementAndGet();
			switch (method + " " + path.replaceAll("/\\d+", "/N").replaceAll("/(c|d)\\d+", "/$1N")) {
				case "POST /v1/short-links" -> send(exchange, 201, "application/json", "{\"code\":\"c" + n + "\"}");
				case "GET /v1/short-links/cN" -> send(exchange, 200, "application/json", "{\"code\":\"" + p[3] + "\"}");
				case "GET /s/cN" -> {
					exchange.getResponseHeaders().add("Location", url() + "/target");
					send(exchange, 302, "text/plain", "");
				}
				case "GET /target" -> {
					this.followed.incrementAndGet();
					send(exchange, 200, "text/plain", "followed");
				}
				case "POST /v1/routes", "POST /v1/events", "POST /v1/events/N/guestbook" ->
					send(exchange, 201, "application/json", "{\"id\":" + n + "}");
				case "GET /v1/routes/N", "GET /v1/events/N" -> {
					if (p[3].equals("0")) {
						send(exchange, 404, "application/problem+json", "{\"title\":\"Not Found\"}");
					}
					else {
						send(exchange, 200, "application/json", "{\"id\":" + p[3] + "}");
					}
				}
				case "GET /v1/routes/N/points" -> {
					pause(20);
					send(exchange, 200, "application/json", POINTS);
				}
				case "GET /v2/mailboxes" -> send(exchange, 200, "application/json", "[{\"no\":1}]");
				case "GET /v2/mails" -> send(exchange, 200, "application/json",
						"{\"total\":2,\"mails\":[{\"no\":6,\"size\":4000},{\"no\":7,\"size\":712000}]}");
				case "GET /v2/mails/N/eml" -> {
					pause(20);
					send(exchange, 200, "message/rfc822", new byte[EML_BYTES]);
				}
				case "POST /v2/mails/send" ->
					send(exchange, 202, "application/json", "{\"mail_no\":" + n + ",\"delivery_id\":\"d" + n + "\"}");
				case "GET /v2/mails/dN/delivery" -> send(exchange, 200, "application/json", "{\"state\":\"sent\"}");
				default -> send(exchange, 404, "application/problem+json", "{\"title\":\"Not Found\"}");
			}
		}
	}

	private static void pause(long ms) {
		try {
			Thread.sleep(ms);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
		send(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
	}

	private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", type);
		exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
