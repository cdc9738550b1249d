package dev.perflab.load.lib;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.jmeter.threads.openmodel.ThreadScheduleProcessGenerator;
import org.apache.jmeter.threads.openmodel.ThreadScheduleUtils;

/**
 * One run's arrivals: the warm-up (half the rate, reported apart) and the main stage in JMeter's open-model schedule
 * language, with even arrivals as k6's arrival-rate executors spaced them, and a pause at the end so iterations still
 * running when the last arrival is due may finish (OpenModelThreadGroup interrupts every thread still running when
 * its schedule ends).
 * <p>
 * The first arrival is due {@link #LEAD_IN} after the test's start: JMeter starts its clock before it compiles the
 * plan, collects garbage and starts the group, and on a busy machine the first arrivals were over a second late.
 * <p>
 * The time of every arrival is computed here by JMeter's own generator from the same text, so an iteration can tell
 * how late it started: arrival {@code i} is the thread numbered {@code i}, started at the test's start plus
 * {@code offsets[i]} seconds.
 * <p>
 * When several runners share the run, each runs its part of the schedule ({@link Share}): the whole schedule's
 * arrivals in turn, each at the time the whole schedule has it.
 */
public final class Schedule {

	/** The pause before the first arrival. */
	public static final Duration LEAD_IN = Duration.ofSeconds(1);

	private final String text;

	private final double[] offsets;

	private final int warmupArrivals;

	private final double mainSeconds;

	private final double peakRate;

	private Schedule(String text, double[] offsets, int warmupArrivals, double mainSeconds, double peakRate) {
		this.text = text;
		this.offsets = offsets;
		this.warmupArrivals = warmupArrivals;
		this.mainSeconds = mainSeconds;
		this.peakRate = peakRate;
	}

	/**
	 * The warm-up at {@code max(1, round(rate / 2))}/s for {@code warmup} (none for 0), then {@code main}, then a
	 * pause of {@code tail} for the iterations still running.
	 */
	public static Schedule of(double rate, Duration warmup, List<Segment> main, Duration tail) {
		return of(rate, warmup, main, tail, Share.WHOLE);
	}

	/**
	 * As {@link #of(double, Duration, List, Duration)}, the part of it runner {@code share.index()} of
	 * {@code share.runners()} runs: the whole schedule's arrivals index, index + runners, ... at the times the whole
	 * schedule has them (see {@link #part}).
	 */
	public static Schedule of(double rate, Duration warmup, List<Segment> main, Duration tail, Share share) {
		List<Segment> warm = warmup.isZero() ? List.of()
				: List.of(new Segment(Math.max(1, Math.round(rate / 2)), Math.max(1, Math.round(rate / 2)), warmup));
		StringBuilder text = new StringBuilder("pause(" + LEAD_IN.toMillis() + " ms) ");
		List<Segment> all = new ArrayList<>(warm);
		all.addAll(main);
		long before = 0;
		int warmupTaken = 0;
		for (int i = 0; i < all.size(); i++) {
			String whole = whole(all.get(i));
			if (share.runners() == 1) {
				text.append(whole);
				continue;
			}
			double[] arrivals = offsets(whole);
			int taken = part(all.get(i), arrivals, before, share, text);
			before += arrivals.length;
			warmupTaken += i < warm.size() ? taken : 0;
		}
		text.append("pause(").append(tail.toMillis()).append(" ms)");
		double[] offsets = offsets(text.toString());
		double warmEnd = LEAD_IN.toMillis() / 1000.0 + warm.stream().mapToDouble(Segment::seconds).sum();
		int warmupArrivals = share.runners() == 1 ? (int) Arrays.stream(offsets).filter((t) -> t < warmEnd).count()
				: warmupTaken;
		double mainSeconds = main.stream().mapToDouble(Segment::seconds).sum();
		double peak = main.stream().mapToDouble((s) -> Math.max(s.from(), s.to())).max().orElse(0) / share.runners();
		return new Schedule(text.toString(), offsets, warmupArrivals, warmEnd + mainSeconds, peak);
	}

	private static String whole(Segment s) {
		return "rate(" + number(s.from()) + "/sec) even_arrivals(" + s.length().toMillis() + " ms) rate(" + number(s.to())
				+ "/sec) ";
	}

	/**
	 * Appends to {@code text} the share's part of segment {@code s}, whose arrivals in the whole schedule are at
	 * {@code arrivals} (seconds from the segment's start) after {@code before} arrivals of the segments before it, and
	 * answers how many it takes.
	 * <p>
	 * JMeter starts each stretch of a schedule afresh (its first arrival at its start, {@code floor(mean rate x length)}
	 * of them), so the part is written as up to three stretches of the segment's length in all: a pause until the
	 * share's first arrival of the segment, a stretch at the rate divided by the runners up to its last arrival (its
	 * arrivals are the whole schedule's, one in {@code runners}), and a stretch with that last arrival alone.
	 */
	private static int part(Segment s, double[] arrivals, long before, Share share, StringBuilder text) {
		int runners = share.runners();
		int first = (int) Math.floorMod(share.index() - before, (long) runners);
		double length = s.length().toMillis() / 1000.0;
		if (first >= arrivals.length) {
			text.append("pause(").append(s.length().toMillis()).append(" ms) ");
			return 0;
		}
		int taken = (arrivals.length - 1 - first) / runners + 1;
		int last = first + (taken - 1) * runners;
		double at = arrivals[first];
		if (at > 0) {
			text.append("pause(").append(number(at)).append(" sec) ");
		}
		if (taken > 1) {
			double from = rateAt(s, length, arrivals[first]) / runners;
			double to = rateAt(s, length, arrivals[last]) / runners;
			// taken - 1 arrivals exactly: a millionth of one more keeps JMeter's floor() off the one below
			double stretch = (taken - 1 + 1e-6) / ((from + to) / 2);
			text.append("rate(").append(number(from)).append("/sec) even_arrivals(").append(number(stretch))
				.append(" sec) rate(").append(number(to)).append("/sec) ");
			at += stretch;
		}
		double rest = Math.max(length - at, 1e-6);
		String once = number(1.5 / rest);
		text.append("rate(").append(once).append("/sec) even_arrivals(").append(number(rest)).append(" sec) rate(")
			.append(once).append("/sec) ");
		return taken;
	}

	/** The rate {@code t} seconds into segment {@code s}, as JMeter's even arrivals reckon it. */
	private static double rateAt(Segment s, double length, double t) {
		double mean = (s.from() + s.to()) / 2;
		return Math.abs(s.to() - s.from()) < 0.0001 * mean ? mean : s.from() + (s.to() - s.from()) * t / length;
	}

	private static double[] offsets(String text) {
		ThreadScheduleProcessGenerator generator;
		try {
			generator = new ThreadScheduleProcessGenerator(new Random(1), ThreadScheduleUtils.ThreadSchedule(text));
		}
		catch (Exception ex) {
			throw new IllegalStateException("JMeter refused the schedule " + text, ex);
		}
		double[] offsets = new double[1024];
		int n = 0;
		while (generator.hasNext()) {
			if (n == offsets.length) {
				offsets = Arrays.copyOf(offsets, n * 2);
			}
			offsets[n++] = generator.nextDouble();
		}
		return Arrays.copyOf(offsets, n);
	}

	private static String number(double value) {
		return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
	}

	/** The schedule as OpenModelThreadGroup reads it. */
	public String text() {
		return this.text;
	}

	public int arrivals() {
		return this.offsets.length;
	}

	/** When arrival {@code i} is due, in ms after the test's start (as OpenModelThreadGroup rounds it). */
	public long dueMillis(int arrival) {
		return Math.round(this.offsets[arrival] * 1000);
	}

	public boolean isWarmup(int arrival) {
		return arrival < this.warmupArrivals;
	}

	/** Seconds from the test's start to the end of the last arrival's slot: lead-in, warm-up, main stage; no tail. */
	public double arrivalSeconds() {
		return this.mainSeconds;
	}

	public double peakRate() {
		return this.peakRate;
	}

}
