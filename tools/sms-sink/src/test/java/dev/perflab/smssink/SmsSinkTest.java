package dev.perflab.smssink;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SmsSinkTest {

	private static final HttpClient CLIENT = HttpClient.newHttpClient();

	@Test
	void countsEachMessageIdSoDuplicatesShow() throws Exception {
		try (SmsSink sink = SmsSink.start(0, Duration.ZERO, 0)) {
			assertThat(post(sink, "a").statusCode()).isEqualTo(200);
			assertThat(post(sink, "b").statusCode()).isEqualTo(200);
			assertThat(post(sink, "a").body()).isEqualTo("{\"message_id\":\"a\",\"count\":2}");
			assertThat(get(sink, "/count")).isEqualTo("{\"deliveries\":3,\"messages\":2,\"duplicates\":1,\"refused\":0}");
			assertThat(get(sink, "/deliveries")).isEqualTo("[{\"message_id\":\"a\",\"count\":2},{\"message_id\":\"b\",\"count\":1}]");
			assertThat(get(sink, "/deliveries/b")).isEqualTo("{\"message_id\":\"b\",\"count\":1}");
		}
	}

	@Test
	void refusesAMessageWithoutAnId() throws Exception {
		try (SmsSink sink = SmsSink.start(0, Duration.ZERO, 0)) {
			HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(URI.create(sink.url()))
				.POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(sink.deliveries()).isZero();
		}
	}

	@Test
	void answersAfterItsLatencyAndFailsAtItsRate() throws Exception {
		try (SmsSink sink = SmsSink.start(0, Duration.ofMillis(300), 0)) {
			long started = System.nanoTime();
			post(sink, "slow");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
			sink.latency(Duration.ZERO);
			sink.failureRate(1);
			assertThat(post(sink, "refused").statusCode()).isEqualTo(503);
			assertThat(sink.count("refused")).isZero();
			assertThat(get(sink, "/count")).contains("\"refused\":1");
		}
	}

	@Test
	void goesDownAndComesBackOnTheSamePortWithItsCounts() throws Exception {
		try (SmsSink sink = SmsSink.start(0, Duration.ZERO, 0)) {
			post(sink, "before");
			sink.down();
			assertThatThrownBy(() -> post(sink, "while-down")).isInstanceOf(ConnectException.class);
			sink.up();
			post(sink, "after");
			assertThat(sink.count("before")).isEqualTo(1);
			assertThat(sink.count("after")).isEqualTo(1);
			assertThat(sink.deliveries()).isEqualTo(2);
		}
	}

	private static HttpResponse<String> post(SmsSink sink, String id) throws Exception {
		return CLIENT.send(HttpRequest.newBuilder(URI.create(sink.url())).header(SmsSink.MESSAGE_ID, id)
			.POST(HttpRequest.BodyPublishers.ofString("{\"to\":\"01012345678\",\"text\":\"hi\"}")).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private static String get(SmsSink sink, String path) throws Exception {
		return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sink.port() + path)).build(),
				HttpResponse.BodyHandlers.ofString()).body();
	}
}
