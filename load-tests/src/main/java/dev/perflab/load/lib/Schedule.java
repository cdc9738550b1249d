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
		List<Segment> warm = warmup.isZero() ? List.of()
				: List.of(new Segment(Math.max(1, Math.round(rate / 2)), Math.max(1, Math.round(rate / 2)), warmup));
		StringBuilder text = new StringBuilder("pause(" + LEAD_IN.toMillis() + " ms) ");
		List<Segment> all = new ArrayList<>(warm);
		all.addAll(main);
		for (Segment s : all) {
			text.append("rate(").append(number(s.from())).append("/sec) even_arrivals(").append(s.length().toMillis())
				.append(" ms) rate(").append(number(s.to())).append("/sec) ");
		}
		text.append("pause(").append(tail.toMillis()).append(" ms)");
		double[] offsets = offsets(text.toString());
		double warmEnd = LEAD_IN.toMillis() / 1000.0 + warm.stream().mapToDouble(Segment::seconds).sum();
		int warmupArrivals = (int) Arrays.stream(offsets).filter((t) -> t < warmEnd).count();
		double mainSeconds = main.stream().mapToDouble(Segment::seconds).sum();
		double peak = main.stream().mapToDouble((s) -> Math.max(s.from(), s.to())).max().orElse(0);
		return new Schedule(text.toString(), offsets, warmupArrivals, warmEnd + mainSeconds, peak);
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
