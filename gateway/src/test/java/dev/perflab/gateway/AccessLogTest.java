package dev.perflab.gateway;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The access log over real requests: a read-receipt link's key, in its path or its query, is never written. */
class AccessLogTest extends GatewayTestSupport {

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final AppenderBase<ILoggingEvent> capture = new AppenderBase<>() {
		@Override
		protected void append(ILoggingEvent event) {
			lines.add(event.getFormattedMessage());
		}
	};

	private Level level;

	@BeforeEach
	void captureAccessLines() {
		Logger access = (Logger) LoggerFactory.getLogger("perflab.access");
		level = access.getLevel();
		access.setLevel(Level.INFO);
		capture.start();
		access.addAppender(capture);
	}

	@AfterEach
	void restore() {
		Logger access = (Logger) LoggerFactory.getLogger("perflab.access");
		access.detachAppender(capture);
		access.setLevel(level);
	}

	@Test
	void receiptKeysAreNotWrittenToTheAccessLog() {
		String key = "Rk" + code() + "x".repeat(10);
		String secret = "q" + code();
		for (String path : List.of("/v2/office/1/receipt-confirm/" + key + "?key=" + secret,
				"/v2/office/1/Receipt-Confirm/" + key + "/more?key=" + secret)) {
			send(from("127.0.0.23"), get(path));
		}
		// a line is written once the answer is complete, which may be just after the client has it
		List<String> receipts = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(20))
			.until(this::receiptLines, written -> written.size() >= 2);
		assertThat(receipts).hasSize(2).allSatisfy(line -> assertThat(line).doesNotContain(key, secret));
		assertThat(receipts.get(0)).contains("GET /v2/office/1/receipt-confirm/{key} ");
		assertThat(receipts.get(1)).contains("GET /v2/office/1/Receipt-Confirm/{key}/more ");
	}

	private List<String> receiptLines() {
		return lines.stream().filter(line -> line.contains("/v2/office/1/")).toList();
	}
}
