package dev.perflab.gateway.shutdown;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.IntSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * The last bytes of each answer, sent before the pod's network goes. Graceful shutdown waits for each request until
 * its answer is written: into the kernel's send buffer, not to the caller. A caller on a slow link may still have a
 * whole send buffer of it to receive (Linux grows one to 4 MB) when the JVM exits, and Kubernetes removes a pod's
 * network as soon as its containers have exited: those bytes are never sent, and the caller waits on a connection
 * that no longer answers. Seen on the real test node: a 22 MB EML read at 1.5 MB/s stalled 2.7 MB short when its
 * gateway pod was scaled in.
 * <p>
 * Stopped after the web server (a lower phase), this waits until no connection on the API port holds a byte the
 * caller has not acknowledged ({@code tx_queue} in {@code /proc/self/net/tcp} and {@code tcp6}: the pod's own network
 * namespace), or until its timeout. Where those tables are not there (not Linux), it does not wait.
 */
public final class SendQueueDrain implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(SendQueueDrain.class);

	static final List<Path> TABLES = List.of(Path.of("/proc/self/net/tcp"), Path.of("/proc/self/net/tcp6"));

	private final IntSupplier port;

	private final Duration timeout;

	private final List<Path> tables;

	private volatile boolean running;

	/**
	 * @param port the API port, read at shutdown (the server's bound port)
	 * @param timeout the longest wait; zero: none
	 */
	public SendQueueDrain(IntSupplier port, Duration timeout) {
		this(port, timeout, TABLES);
	}

	SendQueueDrain(IntSupplier port, Duration timeout, List<Path> tables) {
		this.port = port;
		this.timeout = timeout;
		this.tables = tables;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		drain();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** After the web server's stop ({@link WebServerApplicationContext#START_STOP_LIFECYCLE_PHASE}). */
	@Override
	public int getPhase() {
		return WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1;
	}

	/** Waits as the class says; returns the bytes still unsent when it stopped waiting. */
	long drain() {
		int port = this.port.getAsInt();
		if (port <= 0 || this.timeout.isZero() || this.tables.stream().noneMatch(Files::isReadable)) {
			return 0;
		}
		long start = System.nanoTime();
		long deadline = start + this.timeout.toNanos();
		long first = unsent(port);
		long left = first;
		while (left > 0 && System.nanoTime() < deadline) {
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			left = unsent(port);
		}
		if (first > 0) {
			long ms = Duration.ofNanos(System.nanoTime() - start).toMillis();
			if (left > 0) {
				log.warn("{} bytes of answers on port {} still unsent after {} ms: their callers lose them", left, port, ms);
			}
			else {
				log.info("{} bytes of answers on port {} left in send buffers at shutdown, sent in {} ms", first, port, ms);
			}
		}
		return left;
	}

	/** Bytes the kernel holds for connections on {@code port} that their peers have not acknowledged. */
	long unsent(int port) {
		long sum = 0;
		for (Path table : this.tables) {
			if (!Files.isReadable(table)) {
				continue;
			}
			List<String> lines;
			try {
				lines = Files.readAllLines(table);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			// "sl local_address rem_address st tx_queue:rx_queue ...", addresses as HEX_IP:HEX_PORT, queues in hex
			for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
				String[] fields = line.trim().split("\\s+");
				if (fields.length < 5) {
					continue;
				}
				String local = fields[1];
				if (Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16) == port) {
					sum += Long.parseLong(fields[4].substring(0, fields[4].indexOf(':')), 16);
				}
			}
		}
		return sum;
	}

}
