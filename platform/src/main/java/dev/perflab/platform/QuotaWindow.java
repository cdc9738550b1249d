package dev.perflab.platform;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * The window a quota counts in: a fixed length aligned to the epoch, so an hour starts at the top of the UTC hour and
 * a day at UTC midnight. Every quota of the services counts per window and refuses the same way: 429 problem+json
 * with {@code Retry-After}, the seconds until the window ends.
 *
 * @param length the window's length, at least a second
 */
public record QuotaWindow(Duration length) {

	public static final QuotaWindow HOUR = new QuotaWindow(Duration.ofHours(1));

	public static final QuotaWindow DAY = new QuotaWindow(Duration.ofDays(1));

	public QuotaWindow {
		if (length.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("a quota window is at least a second long: " + length);
		}
	}

	/** the start of the window {@code instant} falls in */
	public Instant start(Instant instant) {
		long size = length.toMillis();
		return Instant.ofEpochMilli(Math.floorDiv(instant.toEpochMilli(), size) * size);
	}

	/** the start of the window {@code instant} falls in, as the counters' rows name it (UTC) */
	public LocalDateTime startUtc(Instant instant) {
		return LocalDateTime.ofInstant(start(instant), ZoneOffset.UTC);
	}

	/** the UTC day {@code instant} falls in (for a day's window, the counters' key) */
	public static LocalDate day(Instant instant) {
		return LocalDate.ofInstant(instant, ZoneOffset.UTC);
	}

	/** the seconds from {@code now} until its window ends, rounded up: never 0, a client waits at least a second */
	public long secondsLeft(Instant now) {
		Instant end = start(now).plus(length);
		return Math.max(1, (Duration.between(now, end).toMillis() + 999) / 1000);
	}

	/**
	 * A 429 {@code slug} refusal with {@code Retry-After} set to the seconds until {@code now}'s window ends, naming
	 * the quota's {@code scope} (when not null) and its {@code limit}.
	 */
	public ProblemException refused(String slug, String detail, Instant now, String scope, Object limit) {
		ProblemException refused = new ProblemException(HttpStatus.TOO_MANY_REQUESTS, slug, detail);
		refused.getHeaders().set(HttpHeaders.RETRY_AFTER, String.valueOf(secondsLeft(now)));
		if (scope != null) {
			refused.getBody().setProperty("scope", scope);
		}
		refused.getBody().setProperty("limit", limit);
		return refused;
	}
}
