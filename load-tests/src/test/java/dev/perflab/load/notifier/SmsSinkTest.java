package dev.perflab.load.notifier;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drain of seed 001's teardown against a real HTTP server on loopback standing in for tools/sms-sink.
 */
class SmsSinkTest {

	@Test
	void waitsUntilNoNewSmsArrivesThenAnswersTheCounts() throws Exception {
		AtomicInteger asked = new AtomicInteger();
		HttpServer server = sink(() -> {
			// three more SMS arrive over the first asks, then none
			int n = Math.min(asked.incrementAndGet(), 4);
			return "{\"deliveries\":" + (10 + n) + ",\"messages\":" + (9 + n) + ",\"duplicates\":1,\"refused\":2}";
		});
		try {
			SmsSink sink = new SmsSink("http://127.0.0.1:" + server.getAddress().getPort() + "/", Duration.ofMillis(20));
			SmsSink.Count drained = sink.drain(3, 100);
			assertThat(drained).isEqualTo(new SmsSink.Count(14, 1, 2));
			// asked until three asks in a row saw no new SMS after the last one arrived
			assertThat(asked.get()).isEqualTo(7);
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void readsNothingWithoutAnEndpoint() throws Exception {
		SmsSink sink = new SmsSink("", Duration.ofMillis(20));
		assertThat(sink.count()).isNull();
		assertThat(sink.drain(3, 100)).isNull();
	}

	@Test
	void answersNullWhenTheEndpointDoesNotAnswer() throws Exception {
		HttpServer server = sink(() -> "{}");
		String url = "http://127.0.0.1:" + server.getAddress().getPort();
		server.stop(0);
		assertThat(new SmsSink(url, Duration.ofMillis(20)).count()).isNull();
	}

	private static HttpServer sink(java.util.function.Supplier<String> count) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
		server.createContext("/count", (exchange) -> {
			byte[] body = count.get().getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		return server;
	}

}
