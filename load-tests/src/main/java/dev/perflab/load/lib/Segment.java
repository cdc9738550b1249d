package dev.perflab.load.lib;

import java.time.Duration;

/**
 * A stretch of an arrival schedule: the rate (iterations/s) goes from {@code from} to {@code to} evenly over
 * {@code length}; equal rates hold.
 */
public record Segment(double from, double to, Duration length) {

	public double seconds() {
		return this.length.toMillis() / 1000.0;
	}

}
