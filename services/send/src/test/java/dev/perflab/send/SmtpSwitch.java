package dev.perflab.send;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder in front of the real SMTP relay that the tests can cut: while off, connections are accepted
 * and dropped at once (the relay is down), and connections in flight are cut too.
 */
final class SmtpSwitch implements AutoCloseable {

	private final ServerSocket server;

	private final int targetPort;

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private volatile boolean on = true;

	SmtpSwitch(int targetPort) throws IOException {
		this.targetPort = targetPort;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread.ofPlatform().daemon().name("smtp-switch").start(this::accept);
	}

	int port() {
		return server.getLocalPort();
	}

	void off() {
		on = false;
		open.forEach(SmtpSwitch::closeQuietly);
	}

	void on() {
		on = true;
	}

	private void accept() {
		while (!server.isClosed()) {
			try {
				Socket client = server.accept();
				if (!on) {
					client.close();
					continue;
				}
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
				open.add(client);
				open.add(upstream);
				pipe(client, upstream);
				pipe(upstream, client);
			}
			catch (IOException e) {
				// closed, or the upstream is down: the client sees its connection end
			}
		}
	}

	private void pipe(Socket from, Socket to) {
		Thread.ofPlatform().daemon().start(() -> {
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				in.transferTo(out);
			}
			catch (IOException e) {
				// cut
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
				open.remove(from);
				open.remove(to);
			}
		});
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException e) {
			// already closed
		}
	}

	@Override
	public void close() throws IOException {
		server.close();
		open.forEach(SmtpSwitch::closeQuietly);
	}
}
