package dev.perflab.load.lib;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * </pre>
 */
final class Control implements AutoCloseable {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final HttpServer server;

	private final RunState state;

	private final String runner;

	private final String testid;

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
				default -> send(exchange, 404, "no " + method + " " + exchange.getRequestURI().getPath());
			}
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
