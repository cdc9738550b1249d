package dev.perflab.load.reliability;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a run prints on stdout and stderr while it runs in the test's JVM, kept (and still shown) until closed.
 */
final class Console implements AutoCloseable {

	private final PrintStream stdout = System.out;

	private final PrintStream stderr = System.err;

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	Console() {
		System.setOut(new PrintStream(new Tee(this.stdout, this.out), true, StandardCharsets.UTF_8));
		System.setErr(new PrintStream(new Tee(this.stderr, this.err), true, StandardCharsets.UTF_8));
	}

	String out() {
		return this.out.toString(StandardCharsets.UTF_8);
	}

	String err() {
		return this.err.toString(StandardCharsets.UTF_8);
	}

	/** The lines printed on stdout that begin with {@code prefix}. */
	List<String> lines(String prefix) {
		return out().lines().filter((line) -> line.startsWith(prefix)).toList();
	}

	@Override
	public void close() {
		System.setOut(this.stdout);
		System.setErr(this.stderr);
	}

	/** Writes to two streams. */
	private static final class Tee extends OutputStream {

		private final OutputStream first;

		private final OutputStream second;

		Tee(OutputStream first, OutputStream second) {
			this.first = first;
			this.second = second;
		}

		@Override
		public synchronized void write(int b) throws IOException {
			this.first.write(b);
			this.second.write(b);
		}

		@Override
		public synchronized void write(byte[] b, int off, int len) throws IOException {
			this.first.write(b, off, len);
			this.second.write(b, off, len);
		}

		@Override
		public void flush() throws IOException {
			this.first.flush();
		}

	}

}
