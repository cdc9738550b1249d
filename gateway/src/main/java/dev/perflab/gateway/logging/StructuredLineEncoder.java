package dev.perflab.gateway.logging;

import java.lang.reflect.Field;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import ch.qos.logback.classic.spi.ILoggingEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.boot.logging.structured.StructuredLogFormatter;
import org.springframework.util.ReflectionUtils;

/**
 * Spring Boot's structured log encoder (the same formats, the same lines), encoding each line as a whole: the line is
 * formatted into a string and converted to bytes once. Spring Boot's {@code formatAsBytes} writes the JSON through an
 * {@code OutputStreamWriter}, which runs the charset encoder on every member, key and value it appends; for the
 * gateway's access log, one line per request, that was 10 µs of CPU per proxied request (async-profiler,
 * docs/gateway-performance.md), more than any filter. (spring-projects/spring-boot#49428 reports the same path.)
 * <p>
 * Spring Boot keeps the formatter it made private; it is read once at start. Should a later Spring Boot no longer
 * have it, lines are encoded by Spring Boot's own path, exactly as before.
 */
public class StructuredLineEncoder extends StructuredLogEncoder {

	private static final @Nullable Field FORMATTER = ReflectionUtils.findField(StructuredLogEncoder.class, "formatter",
			StructuredLogFormatter.class);

	private @Nullable StructuredLogFormatter<ILoggingEvent> formatter;

	private Charset charset = StandardCharsets.UTF_8;

	@Override
	public void setCharset(@Nullable Charset charset) {
		super.setCharset(charset);
		this.charset = charset != null ? charset : StandardCharsets.UTF_8;
	}

	@Override
	@SuppressWarnings("unchecked")
	public void start() {
		super.start();
		if (FORMATTER != null) {
			ReflectionUtils.makeAccessible(FORMATTER);
			formatter = (StructuredLogFormatter<ILoggingEvent>) ReflectionUtils.getField(FORMATTER, this);
		}
	}

	/** Whether lines are encoded whole (false: Spring Boot's own path). */
	boolean encodesWholeLines() {
		return formatter != null;
	}

	@Override
	public byte[] encode(ILoggingEvent event) {
		StructuredLogFormatter<ILoggingEvent> whole = formatter;
		return whole != null ? whole.format(event).getBytes(charset) : super.encode(event);
	}
}
