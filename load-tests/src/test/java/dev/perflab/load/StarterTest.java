package dev.perflab.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's words against stand-ins for runners' control endpoints: {@code start} waits for every runner to be
 * paused and starts them all, {@code stop} stops each; exit 1 with one line when a runner does not.
 */
class StarterTest {

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	private final Starter starter = new Starter(new PrintStream(this.out, true, StandardCharsets.UTF_8),
			new PrintStream(this.err, true, StandardCharsets.UTF_8));

	private final List<Runner> runners = new java.util.ArrayList<>();

	@AfterEach
	void stopRunners() {
		this.runners.forEach((r) -> r.server.stop(0));
	}

	@Test
	void startsEveryRunnerOnceAllArePaused() throws Exception {
		// one still setting up for its first three answers
		Runner slow = runner((polls) -> polls <= 3 ? "setup" : "paused");
		Runner ready = runner((polls) -> "paused");
		int status = this.starter.start(List.of(slow.address(), ready.address()), Map.of());
		assertThat(status).isZero();
		assertThat(slow.starts.get()).isEqualTo(1);
		assertThat(ready.starts.get()).isEqualTo(1);
		assertThat(slow.polls.get()).isGreaterThanOrEqualTo(4);
		assertThat(printed(this.out)).containsSubsequence("started " + slow.address(), "started " + ready.address(),
				"start spread: ");
		assertThat(printed(this.out)).containsPattern("start spread: \\d+\\.\\d ms between the first and the last answer");
	}

	@Test
	void givesUpOnARunnerNotPausedInTime() throws Exception {
		Runner stuck = runner((polls) -> "setup");
		Runner ready = runner((polls) -> "paused");
		int status = this.starter.start(List.of("--timeout", "500ms", ready.address(), stuck.address()), Map.of());
		assertThat(status).isEqualTo(Starter.FAILED);
		assertThat(printed(this.err).trim())
			.isEqualTo("load-tests: start: " + stuck.address() + " not paused within --timeout=500ms (setup)");
		assertThat(ready.starts.get()).isZero();
	}

	@Test
	void refusesToStartARunnerAlreadyRunning() throws Exception {
		Runner running = runner((polls) -> "running");
		assertThat(this.starter.start(List.of(running.address()), Map.of())).isEqualTo(Starter.FAILED);
		assertThat(printed(this.err).trim())
			.isEqualTo("load-tests: start: " + running.address() + " is running, not paused");
	}

	@Test
	void waitsForARunnerThatDoesNotAnswerYetUntilStartTimeout() throws Exception {
		String nobody = "127.0.0.1:" + freePort();
		int status = this.starter.start(List.of(nobody), Map.of("START_TIMEOUT", "300ms"));
		assertThat(status).isEqualTo(Starter.FAILED);
		assertThat(printed(this.err)).startsWith("load-tests: start: " + nobody + " not paused within START_TIMEOUT=300ms (no answer: ")
			.hasLineCount(1);
	}

	@Test
	void stopsEachRunnerAndSaysWhichOneDidNot() throws Exception {
		Runner running = runner((polls) -> "running");
		Runner done = runner((polls) -> "done");
		assertThat(this.starter.stop(List.of(running.address()))).isZero();
		assertThat(printed(this.out).trim()).isEqualTo("stopped " + running.address());
		assertThat(this.starter.stop(List.of(done.address()))).isEqualTo(Starter.FAILED);
		assertThat(printed(this.err)).startsWith("load-tests: stop: " + done.address() + " answered 409").hasLineCount(1);
		assertThat(running.stops.get()).isEqualTo(1);
	}

	@Test
	void refusesBadWordsAsBadInput() throws Exception {
		assertThat(LoadRunner.run(new String[] { "start" })).isEqualTo(LoadRunner.BAD_INPUT);
		assertThat(LoadRunner.run(new String[] { "start", "--timeout", "soon", "127.0.0.1:1" }))
			.isEqualTo(LoadRunner.BAD_INPUT);
		assertThat(LoadRunner.run(new String[] { "stop" })).isEqualTo(LoadRunner.BAD_INPUT);
	}

	/** A stand-in for a runner's endpoint whose state is {@code state} of the number of status polls so far. */
	private Runner runner(IntFunction<String> state) throws IOException {
		Runner runner = new Runner(state);
		this.runners.add(runner);
		return runner;
	}

	private static String printed(ByteArrayOutputStream stream) {
		return stream.toString(StandardCharsets.UTF_8);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static final class Runner {

		final HttpServer server;

		final AtomicInteger polls = new AtomicInteger();

		final AtomicInteger starts = new AtomicInteger();

		final AtomicInteger stops = new AtomicInteger();

		Runner(IntFunction<String> state) throws IOException {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
			this.server.createContext("/v1/", (exchange) -> {
				String path = exchange.getRequestURI().getPath();
				String now = state.apply(path.equals("/v1/status") ? this.polls.incrementAndGet() : this.polls.get());
				int status = 200;
				if (path.equals("/v1/start")) {
					status = now.equals("paused") ? 200 : 409;
					this.starts.incrementAndGet();
				}
				else if (path.equals("/v1/stop")) {
					status = now.equals("done") ? 409 : 200;
					this.stops.incrementAndGet();
				}
				byte[] body = ("{\"state\":\"" + now + "\",\"runner\":null,\"testid\":\"t\"}").getBytes(StandardCharsets.UTF_8);
				exchange.sendResponseHeaders(status, body.length);
				try (OutputStream stream = exchange.getResponseBody()) {
					stream.write(body);
				}
			});
			this.server.start();
		}

		String address() {
			return "127.0.0.1:" + this.server.getAddress().getPort();
		}

	}

}
