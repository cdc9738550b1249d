package dev.perflab.gateway.logging;

import java.nio.charset.StandardCharsets;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class StructuredLineEncoderTest {

	@Test
	void encodesTheLinesSpringBootsEncoderWritesAsWholeLines() {
		LoggerContext context = new LoggerContext();
		context.setMDCAdapter(new LogbackMDCAdapter());
		context.putObject(Environment.class.getName(),
				new MockEnvironment().withProperty("spring.application.name", "gateway"));
		StructuredLogEncoder spring = start(new StructuredLogEncoder(), context);
		StructuredLineEncoder whole = start(new StructuredLineEncoder(), context);
		LoggingEvent event = new LoggingEvent("test", context.getLogger("perflab.access"), Level.INFO,
				"{} {} {} {}ms request_id={} user={}", new RuntimeException("cause \"quoted\" \u00e9\u4e2d"),
				new Object[] { "GET", "/v1/short-links/\u00e9\u4e2d\"x\"", 200, 3, "req-1", "alice" });

		assertThat(whole.encodesWholeLines()).as("Spring Boot's formatter was found").isTrue();
		byte[] line = whole.encode(event);
		assertThat(line).isEqualTo(spring.encode(event));
		assertThat(new String(line, StandardCharsets.UTF_8)).contains("\"message\":\"GET /v1/short-links/\u00e9\u4e2d\\\"x\\\" 200")
			.endsWith("\n");
	}

	private static <E extends StructuredLogEncoder> E start(E encoder, LoggerContext context) {
		encoder.setContext(context);
		encoder.setFormat("ecs");
		encoder.setCharset(StandardCharsets.UTF_8);
		encoder.start();
		return encoder;
	}
}
