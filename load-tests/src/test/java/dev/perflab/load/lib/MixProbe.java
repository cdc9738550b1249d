package dev.perflab.load.lib;

import java.util.List;
import java.util.Map;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * A mix of two parts against {@link LocalServer}: {@code a} at 4/s sends GET /ok named {@code a}, {@code b} at 2/s
 * the same named {@code b}, at most 10 of each in flight.
 */
final class MixProbe implements Scenario {

	@Override
	public String name() {
		return "probe";
	}

	@Override
	public Load load(Settings settings) {
		return Load.mix(Map.of("a", 4.0, "b", 2.0), 10);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("shortener"), null).failures();
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		return List.of(Mix.part("a", request(context, "a")), Mix.part("b", request(context, "b")));
	}

	private static ThreadGroupChild request(Context context, String name) {
		return httpSampler(name, context.baseUrl() + "/ok").children(check(name + " is 200", (r) -> r.status() == 200));
	}

}
