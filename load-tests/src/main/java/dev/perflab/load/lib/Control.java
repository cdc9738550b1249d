package dev.perflab.load.lib;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A run's control endpoint (CONTROL=host:port), what k6's REST API gave: a paused start, a synchronised start of
 * several runners (the starter's {@code start} word), a stop.
 *
 * <pre>
 *   GET  /v1/status   200 {"state": "setup|paused|running|stopping|done", "runner": ..., "testid": ...}
 *   POST /v1/start    200: a paused run starts; 409 when it is not paused
 *   POST /v1/stop     200: the run ends as at its schedule's end (exit 103); 409 when it is done
 *   GET  /v1/samples  200 the run's JTL once it is over and kept (KEEP_SAMPLES); 409 before, or when none is kept
 *   POST /v1/release  200: the kept samples are no longer needed, the runner exits; 409 when none are kept
 * </pre>
 */
final class Control implements AutoCloseable {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final HttpServer server;

	private final RunState state;

	private final String runner;

	private final String testid;

	private final CountDownLatch released = new CountDownLatch(1);

	private volatile Path samples;

	private Control(HttpServer server, RunState state, String runner, String testid) {
		this.server = server;
		this.state = state;
		this.runner = runner;
		this.testid = testid;
	}

	/** The endpoint CONTROL names, listening (its address printed on one line), or null without CONTROL. */
	static Control open(Settings settings, RunState state) {
		InetSocketAddress address = settings.control().orElse(null);
		if (address == null) {
			return null;
		}
		String asked = address.getHostString() + ":" + address.getPort();
		HttpServer server;
		try {
			server = HttpServer.create(new InetSocketAddress(address.getHostString(), address.getPort()), 16);
		}
		catch (IOException | IllegalArgumentException ex) {
			// IllegalArgumentException: a host that does not resolve
			throw new BadInput("CONTROL=" + asked + ": cannot listen there (" + ex + ")");
		}
		Control control = new Control(server, state, settings.runner().orElse(null), settings.testid());
		server.createContext("/v1/", control::answer);
		server.start();
		InetSocketAddress bound = server.getAddress();
		System.out.println("control: listening on " + bound.getHostString() + ":" + bound.getPort());
		System.out.flush();
		return control;
	}

	/** Where the endpoint listens (its port, when CONTROL asked for port 0). */
	InetSocketAddress address() {
		return this.server.getAddress();
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			String method = exchange.getRequestMethod();
			switch (exchange.getRequestURI().getPath()) {
				case "/v1/status" -> {
					if (allowed(exchange, "GET")) {
						send(exchange, 200, null);
					}
				}
				case "/v1/start" -> {
					if (allowed(exchange, "POST")) {
						boolean started = this.state.start();
						send(exchange, started ? 200 : 409, started ? null : "not paused");
					}
				}
				case "/v1/stop" -> {
					if (allowed(exchange, "POST")) {
						boolean stopping = this.state.stop("control");
						send(exchange, stopping ? 200 : 409, stopping ? null : "the run is over");
					}
				}
				case "/v1/samples" -> {
					if (allowed(exchange, "GET")) {
						samples(exchange);
					}
				}
				case "/v1/release" -> {
					if (allowed(exchange, "POST")) {
						boolean kept = this.samples != null;
						send(exchange, kept ? 200 : 409, kept ? null : "no samples kept");
						this.released.countDown();
					}
				}
				default -> send(exchange, 404, "no " + method + " " + exchange.getRequestURI().getPath());
			}
		}
	}

	/** Serves the run's JTL at {@code GET /v1/samples} from now on. */
	void serve(Path jtl) {
		this.samples = jtl;
	}

	/** Waits until {@code POST /v1/release} or {@code keep} has passed (printing when each happens). */
	void keep(Duration keep) throws InterruptedException {
		System.out.println("samples: kept at GET /v1/samples for " + Durations.format(keep)
				+ " or until POST /v1/release (load-tests report)");
		System.out.flush();
		boolean byRelease = this.released.await(keep.toMillis(), TimeUnit.MILLISECONDS);
		System.out.println(byRelease ? "samples: released" : "samples: nobody took them in " + Durations.format(keep));
	}

	private void samples(HttpExchange exchange) throws IOException {
		Path jtl = this.samples;
		if (jtl == null) {
			send(exchange, 409, this.state.state() == RunState.State.DONE ? "no samples kept (KEEP_SAMPLES)"
					: "the run is not over");
			return;
		}
		exchange.getResponseHeaders().add("Content-Type", "text/csv; charset=utf-8");
		exchange.sendResponseHeaders(200, Files.size(jtl));
		try (OutputStream out = exchange.getResponseBody()) {
			Files.copy(jtl, out);
		}
	}

	private boolean allowed(HttpExchange exchange, String method) throws IOException {
		if (exchange.getRequestMethod().equals(method)) {
			return true;
		}
		exchange.getResponseHeaders().add("Allow", method);
		send(exchange, 405, exchange.getRequestURI().getPath() + " takes " + method);
		return false;
	}

	private void send(HttpExchange exchange, int status, String error) throws IOException {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("state", this.state.state().json());
		body.put("runner", this.runner);
		body.put("testid", this.testid);
		if (error != null) {
			body.put("error", error);
		}
		byte[] bytes = JSON.writeValueAsBytes(body);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
