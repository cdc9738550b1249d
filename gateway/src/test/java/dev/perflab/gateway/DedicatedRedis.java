package dev.perflab.gateway;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A redis-server of a test's own on a free port, which the test may stop and start again: the shared Redis of the
 * local stack (16379) serves other processes and is never stopped by a test.
 */
final class DedicatedRedis {

	private final int port = freePort();

	private volatile Process process;

	DedicatedRedis() {
		start();
		Runtime.getRuntime().addShutdownHook(new Thread(this::stop));
	}

	int port() {
		return port;
	}

	synchronized void start() {
		if (process != null && process.isAlive()) {
			return;
		}
		try {
			process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
					"--save", "", "--appendonly", "no", "--daemonize", "no")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException e) {
			throw new IllegalStateException("redis-server is needed (the local stack installs it)", e);
		}
		await("redis-server listening on " + port).atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(this::listening);
	}

	private boolean listening() {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			return true;
		}
		catch (IOException notYet) {
			return false;
		}
	}

	synchronized void stop() {
		Process p = process;
		if (p == null) {
			return;
		}
		p.destroy();
		try {
			p.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		process = null;
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}
}
