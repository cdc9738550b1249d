package dev.perflab.load.prometheus;

import java.util.Map;
import java.util.TreeMap;

/**
 * A Prometheus native histogram of schema 3 (bucket boundaries 2^(1/8) apart, as k6's
 * TREND_AS_NATIVE_HISTOGRAM writes them), cumulative from its creation: a quantile read from it is within 9% of the
 * exact one, and histograms of several runners add up exactly.
 */
public final class NativeHistogram {

	public static final int SCHEMA = 3;

	/** Values at or below it count in the zero bucket (the Prometheus Go client's default). */
	public static final double ZERO_THRESHOLD = Math.scalb(1.0, -128);

	private static final double[] BOUNDS = new double[1 << SCHEMA];

	static {
		for (int j = 0; j < BOUNDS.length; j++) {
			BOUNDS[j] = Math.pow(2, (double) j / BOUNDS.length - 1);
		}
	}

	private final TreeMap<Integer, Long> buckets = new TreeMap<>();

	private long count;

	private long zeroCount;

	private double sum;

	public synchronized void observe(double value) {
		this.count++;
		this.sum += value;
		if (value <= ZERO_THRESHOLD) {
			this.zeroCount++;
			return;
		}
		this.buckets.merge(index(value), 1L, Long::sum);
	}

	/**
	 * The bucket of a positive value: bucket i holds (2^((i-1)/8), 2^(i/8)]. As the Go client computes it: the
	 * value's fraction in [0.5, 1) and exponent, the first bound at or above the fraction.
	 */
	static int index(double value) {
		int exp = Math.getExponent(value) + 1;
		double fraction = Math.scalb(value, -exp);
		int j = 0;
		while (j < BOUNDS.length && BOUNDS[j] < fraction) {
			j++;
		}
		return j + (exp - 1) * BOUNDS.length;
	}

	/** A consistent copy to encode. */
	public synchronized Snapshot snapshot() {
		return new Snapshot(this.count, this.sum, this.zeroCount, new TreeMap<>(this.buckets));
	}

	/** The histogram at one moment: positive buckets by index, in order. */
	public record Snapshot(long count, double sum, long zeroCount, Map<Integer, Long> buckets) {
	}

}
