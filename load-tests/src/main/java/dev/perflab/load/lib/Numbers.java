package dev.perflab.load.lib;

import org.apache.jmeter.threads.JMeterVariables;

/**
 * The iteration's number as a step reads it (to pick a mail, an encoding, a unique address).
 */
public final class Numbers {

	private Numbers() {
	}

	public static long iteration(JMeterVariables vars) {
		String number = vars.get(Iteration.NUMBER);
		return number == null ? 0 : Long.parseLong(number);
	}

}
