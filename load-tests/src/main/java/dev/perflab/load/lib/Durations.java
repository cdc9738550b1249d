package dev.perflab.load.lib;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as k6 scripts wrote them: a number and ms, s, m or h ({@code 15s}, {@code 1.5m}, {@code 500ms}); a bare
 * number is seconds.
 */
public final class Durations {

	private static final Pattern DURATION = Pattern.compile("^(\\d+(?:\\.\\d+)?)(ms|s|m|h)?$");

	private Durations() {
	}

	public static Duration parse(String key, String value) {
		Matcher m = DURATION.matcher(value.trim());
		if (!m.matches()) {
			throw new BadInput(key + "=" + value + ": not a duration (like 500ms, 15s, 5m or 1h)");
		}
		double unit = switch (m.group(2) == null ? "s" : m.group(2)) {
			case "ms" -> 1;
			case "m" -> 60_000;
			case "h" -> 3_600_000;
			default -> 1_000;
		};
		return Duration.ofMillis(Math.round(Double.parseDouble(m.group(1)) * unit));
	}

	public static String format(Duration d) {
		long ms = d.toMillis();
		return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
	}

}
