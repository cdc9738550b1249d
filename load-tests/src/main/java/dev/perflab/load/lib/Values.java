package dev.perflab.load.lib;

import java.util.Arrays;

/**
 * Every value of a trend, kept whole: percentiles come from all the samples, not from buckets.
 */
final class Values {

	private double[] values = new double[256];

	private int size;

	synchronized void add(double value) {
		if (this.size == this.values.length) {
			this.values = Arrays.copyOf(this.values, this.size * 2);
		}
		this.values[this.size++] = value;
	}

	synchronized int size() {
		return this.size;
	}

	synchronized void copyInto(double[] target, int at) {
		System.arraycopy(this.values, 0, target, at, this.size);
	}

}
