package dev.perflab.load.lib;

import java.util.List;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * A scenario of one checked request (GET /ok of {@link LocalServer}) under a given load, with a threshold on its
 * check by name and a check of its own after the run.
 */
final class ShapeProbe implements Scenario {

	private final Load load;

	private final boolean afterTheRun;

	ShapeProbe(Load load, boolean afterTheRun) {
		this.load = load;
		this.afterTheRun = afterTheRun;
	}

	@Override
	public String name() {
		return "probe";
	}

	@Override
	public Load load(Settings settings) {
		return this.load;
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("shortener"), null)
			.rule("checks{check:ok is 200}", "rate==1")
			.rule("checks{check:after the run}", "rate==1");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		return List.of(httpSampler("ok", context.baseUrl() + "/ok").children(check("ok is 200", (r) -> r.status() == 200)));
	}

	@Override
	public void teardown(Context context) {
		context.run().check("after the run", this.afterTheRun);
	}

}
