package dev.perflab.load.reliability;

import java.util.HashMap;
import java.util.Map;

import org.apache.jmeter.threads.JMeterVariables;

/**
 * One virtual user as the k6 scripts had it: its number in the run (k6's {@code __VU}, from 1), the number of its
 * current iteration (k6's {@code __ITER}, from 0), the bearer token it calls with (k6's
 * {@code TOKENS[(__VU - 1) % n]}), and its own memory across iterations: what it saw of each kind of request (the
 * crash case's "seen down", then "back"). One thread at a time holds it.
 */
final class Vu {

	/** The JMeter variable that holds the VU of the thread's current iteration. */
	static final String VARIABLE = "reliability.vu";

	final int number;

	final String token;

	/** Each kind of request's state as this VU saw it ("seen down", "back"); none before the service went away. */
	final Map<String, String> seen = new HashMap<>();

	private int iteration = -1;

	/** The number of the current iteration in its part, among all its VUs' (k6's exec.scenario.iterationInTest). */
	long inPart;

	Vu(int number, String token) {
		this.number = number;
		this.token = token;
	}

	/** Begins the VU's next iteration. */
	void next() {
		this.iteration++;
	}

	int iteration() {
		return this.iteration;
	}

	/** The VU of the thread's current iteration (see {@link Vus#step}). */
	static Vu of(JMeterVariables vars) {
		if (vars.getObject(VARIABLE) instanceof Vu vu) {
			return vu;
		}
		throw new IllegalStateException("no VU in this iteration: its part lacks Vus.step");
	}

}
