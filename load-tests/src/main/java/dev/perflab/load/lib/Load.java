package dev.perflab.load.lib;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a scenario offers its load: open (arrivals at a rate, the PROFILE's shape, at most a number of iterations in
 * flight) for every SLO run, several such side by side (a mix), or arrivals on a schedule of the scenario's own (a
 * seed's stated profile); closed (a fixed crowd looping, or each of a crowd once) only where a seed's users are one;
 * or arrivals of their own beside a closed crowd (parts), where callers in a loop must be in flight at a given moment.
 */
public sealed interface Load {

	/** {@code rate} iterations/s unless RATE says otherwise; at most {@code maxInFlight} unless MAX_IN_FLIGHT does. */
	record Open(double rate, int maxInFlight) implements Load {
	}

	/**
	 * Arrivals on the scenario's own {@code segments}, with no PROFILE and no warm-up (the scenario reads RATE and
	 * DURATION itself); at most {@code maxInFlight} unless MAX_IN_FLIGHT says otherwise.
	 */
	record Arrivals(List<Segment> segments, int maxInFlight) implements Load {
	}

	/** {@code vus} threads looping for {@code duration}; those still running then get {@code gracefulStop}. */
	record Closed(int vus, Duration duration, Duration gracefulStop) implements Load {
	}

	/**
	 * {@code vus} threads started together, each running the iteration once (k6's per-vu-iterations); those still
	 * running after {@code maxDuration} get {@code gracefulStop}.
	 */
	record Once(int vus, Duration maxDuration, Duration gracefulStop) implements Load {
	}

	/**
	 * Several parts side by side, each its own arrivals at {@code rates} (iterations/s, by part name) times RATE, with
	 * a warm-up and the PROFILE's shape; at most {@code maxInFlight} of each part unless MAX_IN_FLIGHT says otherwise.
	 * The scenario's iteration holds every part's steps, each behind {@link Mix#part}.
	 */
	record Mix(Map<String, Double> rates, int maxInFlight) implements Load {
	}

	/**
	 * Parts of different kinds side by side, by name (k6's scenarios of different executors in one run): arrivals on
	 * a schedule of the part's own ({@link Arrivals}) beside a crowd looping for its duration ({@link Closed}), each
	 * with its own cap or crowd, none starting an iteration after its own end. The scenario's iteration holds every
	 * part's steps, each behind {@link Mix#part}.
	 */
	record Parts(Map<String, Load> parts) implements Load {

		public Parts {
			parts.forEach((name, part) -> {
				if (!(part instanceof Arrivals || part instanceof Closed)) {
					throw new IllegalArgumentException("part " + name + ": arrivals or a closed crowd, not " + part);
				}
			});
		}

	}

	static Load open(double rate, int maxInFlight) {
		return new Open(rate, maxInFlight);
	}

	static Load arrivals(List<Segment> segments, int maxInFlight) {
		return new Arrivals(List.copyOf(segments), maxInFlight);
	}

	static Load closed(int vus, Duration duration, Duration gracefulStop) {
		return new Closed(vus, duration, gracefulStop);
	}

	static Load mix(Map<String, Double> rates, int maxInFlight) {
		return new Mix(Collections.unmodifiableMap(new LinkedHashMap<>(rates)), maxInFlight);
	}

	static Load once(int vus, Duration maxDuration, Duration gracefulStop) {
		return new Once(vus, maxDuration, gracefulStop);
	}

	static Load parts(Map<String, Load> parts) {
		return new Parts(Collections.unmodifiableMap(new LinkedHashMap<>(parts)));
	}

}
