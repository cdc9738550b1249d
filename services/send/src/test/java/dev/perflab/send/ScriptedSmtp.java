package dev.perflab.send;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A minimal SMTP server speaking the protocol over a real socket, whose RCPT replies the test scripts
 * ({@code 250}, {@code 450}, {@code 550}...): the replies GreenMail never gives; a null reply resets the connection instead. It
 * records the recipients of every message it accepted.
 */
final class ScriptedSmtp implements AutoCloseable {

	private final ServerSocket server;

	private final Function<String, String> rcptReply;

	final List<String> accepted = new CopyOnWriteArrayList<>();

	ScriptedSmtp(Function<String, String> rcptReply) throws IOException {
		this.rcptReply = rcptReply;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread.ofPlatform().daemon().name("scripted-smtp").start(this::accept);
	}

	int port() {
		return server.getLocalPort();
	}

	private void accept() {
		while (!server.isClosed()) {
			try {
				Socket socket = server.accept();
				Thread.ofPlatform().daemon().start(() -> session(socket));
			}
			catch (IOException e) {
				// closed
			}
		}
	}

	private void session(Socket socket) {
		try (socket;
				BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
				PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.US_ASCII)) {
			reply(out, "220 scripted ESMTP");
			List<String> recipients = new java.util.ArrayList<>();
			String line;
			while ((line = in.readLine()) != null) {
				String command = line.length() >= 4 ? line.substring(0, 4).toUpperCase(java.util.Locale.ROOT) : line;
				switch (command) {
					case "EHLO", "HELO" -> reply(out, "250 scripted");
					case "MAIL" -> {
						recipients.clear();
						reply(out, "250 OK");
					}
					case "RCPT" -> {
						String address = line.substring(line.indexOf('<') + 1, line.indexOf('>'));
						String answer = rcptReply.apply(address);
						if (answer == null) {
							socket.setSoLinger(true, 0);
							return;
						}
						if (answer.startsWith("250")) {
							recipients.add(address);
						}
						reply(out, answer);
					}
					case "DATA" -> {
						reply(out, "354 go ahead");
						while ((line = in.readLine()) != null && !line.equals(".")) {
							// the message itself does not matter here
						}
						accepted.addAll(recipients);
						reply(out, "250 OK queued");
					}
					case "QUIT" -> {
						reply(out, "221 bye");
						return;
					}
					default -> reply(out, "250 OK");
				}
			}
		}
		catch (IOException | RuntimeException e) {
			// the client hung up
		}
	}

	private static void reply(PrintWriter out, String line) {
		out.print(line + "\r\n");
		out.flush();
	}

	@Override
	public void close() throws IOException {
		server.close();
	}
}
