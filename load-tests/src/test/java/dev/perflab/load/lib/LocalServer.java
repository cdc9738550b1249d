package dev.perflab.load.lib;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP server on loopback for the runner's tests: {@code /ok} answers 200 after {@code delayMs},
 * {@code /missing} answers 404, and it counts what it received.
 */
final class LocalServer implements AutoCloseable {

	private final HttpServer server;

	final AtomicInteger received = new AtomicInteger();

	LocalServer(long delayMs) throws IOException {
		this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
		this.server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
		this.server.createContext("/", (exchange) -> {
			this.received.incrementAndGet();
			try {
				Thread.sleep(delayMs);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			boolean ok = exchange.getRequestURI().getPath().equals("/ok");
			byte[] body = (ok ? "{\"ok\":true}" : "{\"title\":\"Not Found\"}").getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", ok ? "application/json" : "application/problem+json");
			exchange.sendResponseHeaders(ok ? 200 : 404, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
