package dev.perflab.load.lib;

import java.util.List;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * A scenario of two requests per iteration against {@link LocalServer}: {@code create} (GET /ok, 200, checked, timed
 * by the shortener's SLO for create into {@code probe_create_duration}) and {@code missing} (404, expected), plus
 * {@code extra} rules on http_req_duration.
 */
final class ProbeScenario implements Scenario {

	private final double rate;

	private final int maxInFlight;

	private final String[] extra;

	private final boolean closed;

	ProbeScenario(double rate, int maxInFlight, String... extra) {
		this(rate, maxInFlight, false, extra);
	}

	private ProbeScenario(double rate, int maxInFlight, boolean closed, String... extra) {
		this.rate = rate;
		this.maxInFlight = maxInFlight;
		this.closed = closed;
		this.extra = extra;
	}

	/** The same iteration looped by {@code vus} threads for DURATION. */
	static ProbeScenario closed(int vus) {
		return new ProbeScenario(0, vus, true);
	}

	@Override
	public String name() {
		return "probe";
	}

	@Override
	public Load load(Settings settings) {
		return this.closed
				? Load.closed(this.maxInFlight, settings.duration().orElseThrow(), java.time.Duration.ofSeconds(15))
				: Load.open(this.rate, this.maxInFlight);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		Thresholds thresholds = Thresholds.of(Slo.of("shortener"), null)
			.failures()
			.latency("create", "probe_create_duration");
		return this.extra.length == 0 ? thresholds : thresholds.rule("http_req_duration", this.extra);
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		return List.of(
				Callers.bearer(httpSampler("create", context.baseUrl() + "/ok"))
					.children(check("ok is 200", (r) -> r.status() == 200 && r.json("ok").asBoolean())),
				httpSampler("missing", context.baseUrl() + "/missing").children(Expect.statuses(404),
						check("missing is 404 problem+json",
								(r) -> r.status() == 404 && r.header("content-type").startsWith("application/problem+json"))));
	}

}
