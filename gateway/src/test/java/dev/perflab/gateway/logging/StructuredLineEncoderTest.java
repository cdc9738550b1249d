package dev.perflab.gateway.logging;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
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
		LoggerContext context = context();
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

	@Test
	void runsTheCharsetEncoderOncePerLineNotOncePerMember() {
		LoggerContext context = context();
		CountingUtf8 spring = new CountingUtf8();
		CountingUtf8 whole = new CountingUtf8();
		StructuredLogEncoder springEncoder = start(new StructuredLogEncoder(), context, spring);
		StructuredLineEncoder wholeEncoder = start(new StructuredLineEncoder(), context, whole);
		LoggingEvent event = new LoggingEvent("test", context.getLogger("perflab.access"), Level.INFO,
				"{} {} {} {}ms request_id={} user={}", null, new Object[] { "GET", "/s/abc", 302, 1, "req-2", "-" });

		assertThat(wholeEncoder.encode(event)).isEqualTo(springEncoder.encode(event));
		assertThat(spring.loops).as("Spring Boot's path: the encoder per member").isGreaterThan(10);
		assertThat(whole.loops).as("the whole line at once").isEqualTo(1);
	}

	/** A logger context as Spring Boot's logging system leaves it: with the Environment the encoders read. */
	private static LoggerContext context() {
		LoggerContext context = new LoggerContext();
		context.setMDCAdapter(new LogbackMDCAdapter());
		context.putObject(Environment.class.getName(),
				new MockEnvironment().withProperty("spring.application.name", "gateway"));
		return context;
	}

	/** UTF-8, counting how often its encoder is run. */
	private static final class CountingUtf8 extends Charset {

		int loops;

		CountingUtf8() {
			super("x-counting-utf-8", new String[0]);
		}

		@Override
		public boolean contains(Charset cs) {
			return StandardCharsets.UTF_8.contains(cs);
		}

		@Override
		public CharsetDecoder newDecoder() {
			return StandardCharsets.UTF_8.newDecoder();
		}

		@Override
		public CharsetEncoder newEncoder() {
			CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder();
			return new CharsetEncoder(this, utf8.averageBytesPerChar(), utf8.maxBytesPerChar()) {
				@Override
				protected CoderResult encodeLoop(CharBuffer in, ByteBuffer out) {
					loops++;
					return utf8.encode(in, out, false);
				}
			};
		}
	}

	private static <E extends StructuredLogEncoder> E start(E encoder, LoggerContext context, Charset charset) {
		encoder.setContext(context);
		encoder.setFormat("ecs");
		encoder.setCharset(charset);
		encoder.start();
		return encoder;
	}

	private static <E extends StructuredLogEncoder> E start(E encoder, LoggerContext context) {
		encoder.setContext(context);
		encoder.setFormat("ecs");
		encoder.setCharset(StandardCharsets.UTF_8);
		encoder.start();
		return encoder;
	}
}
