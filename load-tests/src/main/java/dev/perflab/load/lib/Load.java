package dev.perflab.load.lib;

import java.time.Duration;

/**
 * How a scenario offers its load: open (arrivals at a rate, the PROFILE's shape, at most a number of iterations in
 * flight) for every SLO run; closed (a fixed crowd looping) only where a seed's users are one.
 */
public sealed interface Load {

	/** {@code rate} iterations/s unless RATE says otherwise; at most {@code maxInFlight} unless MAX_IN_FLIGHT does. */
	record Open(double rate, int maxInFlight) implements Load {
	}

	/** {@code vus} threads looping for {@code duration}; those still running then get {@code gracefulStop}. */
	record Closed(int vus, Duration duration, Duration gracefulStop) implements Load {
	}

	static Load open(double rate, int maxInFlight) {
		return new Open(rate, maxInFlight);
	}

	static Load closed(int vus, Duration duration, Duration gracefulStop) {
		return new Closed(vus, duration, gracefulStop);
	}

}
