package dev.perflab.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A service that breaks off mid-answer, over a plain socket (what a crashed or hung pod does to a connection): each
 * answer is a 200 with {@code Transfer-Encoding: chunked} and its first chunk, then for a path containing
 * {@code /close} the connection is closed, and otherwise nothing more is sent until the caller goes away, or for
 * at most {@link #HANG} (a gateway that never lets go must fail its test, not hold the test JVM).
 */
final class HungService {

	/** The longest a hung answer holds its connection, well past any route's response timeout. */
	static final int HANG = 40_000;

	private final ServerSocket server;

	HungService() {
		try {
			server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		Thread.ofVirtual().name("hung-service").start(() -> {
			while (!server.isClosed()) {
				try {
					Socket socket = server.accept();
					Thread.ofVirtual().start(() -> answerHalf(socket));
				}
				catch (IOException e) {
					return;
				}
			}
		});
	}

	int port() {
		return server.getLocalPort();
	}

	private static void answerHalf(Socket socket) {
		try (socket) {
			socket.setSoTimeout(HANG);
			InputStream in = socket.getInputStream();
			String head = readHead(in);
			OutputStream out = socket.getOutputStream();
			out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
					+ "b\r\n{\"items\":[1\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			if (head.contains("/close")) {
				return;
			}
			// hung: the caller's side ends it
			while (in.read() >= 0) {
				// nothing more is sent
			}
		}
		catch (IOException e) {
			// the caller went away, or the hang's bound passed (SocketTimeoutException): the socket is closed
		}
	}

	private static String readHead(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		int c;
		while ((c = in.read()) >= 0) {
			head.append((char) c);
			if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
				break;
			}
		}
		return head.toString();
	}
}
