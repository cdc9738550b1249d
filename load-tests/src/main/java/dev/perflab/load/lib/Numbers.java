package dev.perflab.load.lib;

import org.apache.jmeter.threads.JMeterVariables;

/**
 * The iteration's number, and its VU's, as a step reads them (to pick a mail, an encoding, a caller, a unique
 * address).
 */
public final class Numbers {

	private Numbers() {
	}

	public static long iteration(JMeterVariables vars) {
		String number = vars.get(Iteration.NUMBER);
		return number == null ? 0 : Long.parseLong(number);
	}

	/** The VU running the iteration, 0-based among all runners' VUs (a closed model's thread). */
	public static int vu(JMeterVariables vars) {
		String vu = vars.get(Iteration.VU);
		return vu == null ? 0 : Integer.parseInt(vu);
	}

}
