package dev.perflab.load.lib;

import us.abstracta.jmeter.javadsl.core.controllers.DslIfController;
import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static us.abstracta.jmeter.javadsl.JmeterDsl.ifController;

/**
 * The steps of one part of a mix ({@link Load.Mix}): every part's arrivals run the same iteration, and each runs only
 * the steps of its own part (k6's {@code exec} of a scenario).
 */
public final class Mix {

	private Mix() {
	}

	/** The JMeter variable that is "true" in an iteration of part {@code name}. */
	static String variable(String name) {
		return "perflab.part." + name;
	}

	/** {@code children} run in the iterations of part {@code name} only. */
	public static DslIfController part(String name, ThreadGroupChild... children) {
		return ifController("${" + variable(name) + "}", children);
	}

}
