package dev.perflab.mail.seed;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;

/**
 * The three EML shapes of seed 000, written byte-for-byte the same on every run (fixed seed): a 4 KB text mail,
 * a 712 KB reply with four inline images, and a 22 MB mail whose 16 MB attachment is base64 encoded.
 */
final class SeedEmls {

	static final String SMALL = "seed/small-4k.eml";

	static final String MEDIUM = "seed/medium-712k.eml";

	static final String LARGE = "seed/large-22m.eml";

	private SeedEmls() {
	}

	static void writeAll(Path root) throws IOException {
		write(root.resolve(SMALL), out -> mail(out, "Weekly status", text(3_700, 1), new int[0]));
		write(root.resolve(MEDIUM), out -> mail(out, "Re: design review with screenshots", text(20_000, 2),
				new int[] { 128_000, 128_000, 128_000, 118_000 }));
		write(root.resolve(LARGE), out -> mail(out, "Quarterly archive", "See the attached archive.\r\n",
				new int[] { 16 * 1024 * 1024 }));
	}

	private static void write(Path file, Body body) throws IOException {
		if (Files.exists(file)) {
			return;
		}
		Files.createDirectories(file.getParent());
		Path temp = file.resolveSibling(file.getFileName() + ".tmp");
		try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 16)) {
			body.write(out);
		}
		Files.move(temp, file);
	}

	private static void mail(OutputStream out, String subject, String text, int[] attachmentSizes) throws IOException {
		String boundary = "perflab-seed-boundary";
		StringBuilder head = new StringBuilder()
			.append("From: Seed Sender <sender@perflab.test>\r\n")
			.append("To: alice@o1.perflab.test\r\n")
			.append("Subject: ").append(subject).append("\r\n")
			.append("Date: Mon, 2 Nov 2026 09:00:00 +0000\r\n")
			.append("Message-ID: <").append(subject.hashCode() & 0x7fffffff).append("@perflab.test>\r\n")
			.append("MIME-Version: 1.0\r\n");
		if (attachmentSizes.length == 0) {
			head.append("Content-Type: text/plain; charset=UTF-8\r\n\r\n").append(text);
			out.write(head.toString().getBytes(StandardCharsets.UTF_8));
			return;
		}
		head.append("Content-Type: multipart/mixed; boundary=\"").append(boundary).append("\"\r\n\r\n")
			.append("--").append(boundary).append("\r\n")
			.append("Content-Type: text/html; charset=UTF-8\r\n\r\n")
			.append("<html><body><pre>").append(text).append("</pre></body></html>\r\n");
		out.write(head.toString().getBytes(StandardCharsets.UTF_8));
		Random random = new Random(attachmentSizes.length);
		for (int i = 0; i < attachmentSizes.length; i++) {
			boolean image = attachmentSizes.length > 1;
			String name = image ? "screenshot-" + (i + 1) + ".png" : "archive.zip";
			String type = image ? "image/png" : "application/zip";
			out.write(("--" + boundary + "\r\nContent-Type: " + type + "; name=\"" + name + "\"\r\n"
					+ "Content-Disposition: " + (image ? "inline" : "attachment") + "; filename=\"" + name + "\"\r\n"
					+ "Content-Transfer-Encoding: base64\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			OutputStream base64 = Base64.getMimeEncoder(76, "\r\n".getBytes(StandardCharsets.US_ASCII))
				.wrap(new NonClosing(out));
			byte[] chunk = new byte[57 * 1024];
			for (int left = attachmentSizes[i]; left > 0; left -= chunk.length) {
				random.nextBytes(chunk);
				base64.write(chunk, 0, Math.min(left, chunk.length));
			}
			base64.close();
			out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
		}
		out.write(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
	}

	private static String text(int length, long seed) {
		Random random = new Random(seed);
		String[] words = { "load", "test", "heap", "query", "index", "mailbox", "latency", "stream", "pool", "gc" };
		StringBuilder out = new StringBuilder(length + 16);
		int column = 0;
		while (out.length() < length) {
			String word = words[random.nextInt(words.length)];
			out.append(word);
			column += word.length() + 1;
			if (column > 70) {
				out.append("\r\n");
				column = 0;
			}
			else {
				out.append(' ');
			}
		}
		return out.append("\r\n").toString();
	}

	@FunctionalInterface
	private interface Body {

		void write(OutputStream out) throws IOException;
	}

	private static final class NonClosing extends java.io.FilterOutputStream {

		NonClosing(OutputStream out) {
			super(out);
		}

		@Override
		public void write(byte[] b, int off, int len) throws IOException {
			out.write(b, off, len);
		}

		@Override
		public void close() throws IOException {
			flush();
		}
	}
}
