package dev.perflab.smssink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A TCP relay on 127.0.0.1 in front of the local SMTP server that holds the end of each message's DATA for
 * {@code delay} before passing it on, so every mail takes that much longer to be accepted: seed 003's sign-up waited
 * 1 s on its welcome mail, the local GreenMail answers in milliseconds. Everything else passes unchanged.
 *
 * <pre>java -cp sms-sink.jar dev.perflab.smssink.SlowRelay LISTEN_PORT SMTP_PORT [--delay-ms=1000]</pre>
 */
public final class SlowRelay {

	private static final byte[] END_OF_DATA = "\r\n.\r\n".getBytes(StandardCharsets.US_ASCII);

	private SlowRelay() {
	}

	public static void main(String[] args) throws IOException {
		int listen = Integer.parseInt(args[0]), target = Integer.parseInt(args[1]);
		Duration delay = Duration.ofMillis(1000);
		for (String arg : args) {
			if (arg.startsWith("--delay-ms=")) {
				delay = Duration.ofMillis(Long.parseLong(arg.substring("--delay-ms=".length())));
			}
		}
		InetAddress loopback = InetAddress.getLoopbackAddress();
		try (ServerSocket server = new ServerSocket()) {
			server.bind(new InetSocketAddress(loopback, listen), 1000);
			System.out.printf("slow relay on 127.0.0.1:%d -> 127.0.0.1:%d, end of DATA held %d ms%n", listen, target,
					delay.toMillis());
			while (true) {
				Socket client = server.accept();
				Duration held = delay;
				Thread.ofVirtual().start(() -> relay(client, loopback, target, held));
			}
		}
	}

	private static void relay(Socket client, InetAddress host, int port, Duration delay) {
		try (client; Socket smtp = new Socket(host, port)) {
			Thread back = Thread.ofVirtual().start(() -> pump(smtp, client, Duration.ZERO));
			pump(client, smtp, delay);
			back.join();
		}
		catch (IOException | InterruptedException e) {
			// a side closed: the SMTP session is over
		}
	}

	private static void pump(Socket from, Socket to, Duration delay) {
		byte[] buffer = new byte[16 * 1024];
		byte[] tail = new byte[0];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			for (int n; (n = in.read(buffer)) > 0;) {
				byte[] seen = new byte[tail.length + n];
				System.arraycopy(tail, 0, seen, 0, tail.length);
				System.arraycopy(buffer, 0, seen, tail.length, n);
				if (!delay.isZero() && contains(seen, END_OF_DATA)) {
					Thread.sleep(delay);
				}
				out.write(buffer, 0, n);
				out.flush();
				tail = java.util.Arrays.copyOfRange(seen, Math.max(0, seen.length - END_OF_DATA.length + 1), seen.length);
			}
			to.shutdownOutput();
		}
		catch (IOException | InterruptedException e) {
			// the other side closed
		}
	}

	private static boolean contains(byte[] haystack, byte[] needle) {
		outer: for (int i = 0; i + needle.length <= haystack.length; i++) {
			for (int j = 0; j < needle.length; j++) {
				if (haystack[i + j] != needle[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}
}
