package dev.perflab.gateway.shutdown;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The drain over real loopback connections and this JVM's own kernel tables: a server's answer of 4 MB to a caller
 * that reads nothing until told, so the kernel holds unsent bytes on the server's port.
 */
@EnabledOnOs(OS.LINUX)
class SendQueueDrainTest {

	private static final int ANSWER = 4 * 1024 * 1024;

	@Test
	void itWaitsUntilTheCallerHasEveryByte() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				Socket caller = slowCaller(server); Socket answering = server.accept()) {
			CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> write(answering));
			SendQueueDrain drain = new SendQueueDrain(server::getLocalPort, Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(10)).until(() -> drain.unsent(server.getLocalPort()) > 0);

			CompletableFuture<Long> drained = CompletableFuture.supplyAsync(drain::drain);
			// while the caller reads nothing, the drain cannot have ended: its bytes are still in the kernel
			assertThat(drained).isNotDone();
			long read = readAll(caller);
			writer.get(10, TimeUnit.SECONDS);

			assertThat(drained.get(10, TimeUnit.SECONDS)).isZero();
			assertThat(read).isEqualTo(ANSWER);
		}
	}

	@Test
	void itGivesUpAfterItsTimeoutWithTheBytesStillUnsent() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				Socket caller = slowCaller(server); Socket answering = server.accept()) {
			CompletableFuture.runAsync(() -> write(answering));
			SendQueueDrain drain = new SendQueueDrain(server::getLocalPort, Duration.ofMillis(200));
			await().atMost(Duration.ofSeconds(10)).until(() -> drain.unsent(server.getLocalPort()) > 0);

			assertThat(drain.drain()).isPositive();
		}
	}

	@Test
	void itDoesNotWaitWhenItsTimeoutIsZero() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				Socket caller = slowCaller(server); Socket answering = server.accept()) {
			CompletableFuture.runAsync(() -> write(answering));
			SendQueueDrain drain = new SendQueueDrain(server::getLocalPort, Duration.ZERO);
			await().atMost(Duration.ofSeconds(10)).until(() -> drain.unsent(server.getLocalPort()) > 0);

			assertThat(drain.drain()).isZero();
		}
	}

	@Test
	void onlyTheGivenPortsConnectionsCount() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
				Socket caller = slowCaller(server); Socket answering = server.accept()) {
			CompletableFuture.runAsync(() -> write(answering));
			SendQueueDrain drain = new SendQueueDrain(other::getLocalPort, Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> new SendQueueDrain(server::getLocalPort, Duration.ZERO).unsent(server.getLocalPort()) > 0);

			assertThat(drain.drain()).isZero();
		}
	}

	/** A caller whose receive buffer is small, so that most of the answer waits in the server's send buffer. */
	private static Socket slowCaller(ServerSocket server) throws IOException {
		Socket caller = new Socket();
		caller.setReceiveBufferSize(8 * 1024);
		caller.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
		return caller;
	}

	private static void write(Socket answering) {
		try {
			OutputStream out = answering.getOutputStream();
			byte[] chunk = new byte[64 * 1024];
			for (int sent = 0; sent < ANSWER; sent += chunk.length) {
				out.write(chunk);
			}
			answering.shutdownOutput();
		}
		catch (IOException ex) {
			// the caller went away (the give-up test closes it unread)
		}
	}

	private static long readAll(Socket caller) throws IOException {
		InputStream in = caller.getInputStream();
		byte[] buffer = new byte[64 * 1024];
		long total = 0;
		for (int n; (n = in.read(buffer)) > 0;) {
			total += n;
		}
		return total;
	}

}
