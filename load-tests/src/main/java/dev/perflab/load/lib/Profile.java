package dev.perflab.load.lib;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The load shapes every scenario picks from with PROFILE: the rate is what
 * the system is offered, whatever its latency. Ramps start at 0 and reach {@code round(rate x factor)}; DURATION
 * replaces each shape's hold lengths.
 */
public enum Profile {

	/** A short, small, constant run: does every endpoint meet its SLO? */
	SMOKE("15s"),
	/** The expected day: ramp up, hold, ramp down. */
	AVERAGE("5m"),
	/** Beyond the expected load in steps, to find where the SLO breaks. */
	STRESS("2m"),
	/** A sudden burst of five times the rate, then back. */
	SPIKE("1m"),
	/** The expected load for a long time: leaks, pool exhaustion, growing queues. */
	SOAK("1h");

	private final Duration hold;

	Profile(String hold) {
		this.hold = Durations.parse("DURATION", hold);
	}

	public static Profile named(String name) {
		return Arrays.stream(values())
			.filter((p) -> p.name().toLowerCase(Locale.ROOT).equals(name))
			.findFirst()
			.orElseThrow(() -> new BadInput("PROFILE=" + name + ": one of "
					+ Arrays.stream(values()).map(Profile::toString).collect(Collectors.joining(", "))));
	}

	/** The main stage at {@code rate} iterations/s; {@code duration} replaces the holds' default length when set. */
	public List<Segment> segments(double rate, Duration duration) {
		Duration d = duration != null ? duration : this.hold;
		return switch (this) {
			case SMOKE, SOAK -> List.of(new Segment(rate, rate, d));
			case AVERAGE -> ramp(rate, "30s", 1, d, 1, "30s", 0);
			case STRESS -> ramp(rate, "30s", 1, d, 1, "30s", 2, d, 2, "30s", 3, d, 3, "30s", 0);
			case SPIKE -> ramp(rate, "10s", 1, d, 1, "5s", 5, "30s", 5, "5s", 1, d, 1);
		};
	}

	/** Stages as (length, factor) pairs: each ramps from the previous target (0 first) to round(rate x factor). */
	private static List<Segment> ramp(double rate, Object... stages) {
		List<Segment> segments = new ArrayList<>();
		double from = 0;
		for (int i = 0; i < stages.length; i += 2) {
			Duration length = stages[i] instanceof Duration d ? d : Durations.parse("DURATION", (String) stages[i]);
			double to = Math.round(rate * ((Number) stages[i + 1]).doubleValue());
			segments.add(new Segment(from, to, length));
			from = to;
		}
		return segments;
	}

	@Override
	public String toString() {
		return name().toLowerCase(Locale.ROOT);
	}

}
