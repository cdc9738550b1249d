package dev.perflab.load.shortener;

import java.time.Duration;
import java.util.List;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Segment;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * Reads of one link's details through the gateway at a constant rate, every one reaching a shortener pod (the edge
 * cache only answers redirects). Used while a pod is deleted: with the PDB, the preStop pause, readiness and graceful
 * shutdown, no request may fail.
 *
 * <pre>
 *   CODE      a short code the caller owns (required)
 *   RATE (40)  DURATION (30s)  MAX_VUS (50: a rate that saturates the pods needs rate x latency of them)
 *   LATENCY   printed: failures judged only, latency reported (a run that measures a disruption: a replacement JVM
 *             starting on the same CPUs says nothing of the SLO)
 * </pre>
 */
public final class ShortenerReads implements Scenario {

	@Override
	public String name() {
		return "shortener-reads";
	}

	@Override
	public Load load(Settings settings) {
		double rate = settings.rate().orElse(40.0);
		Duration duration = settings.duration().orElse(Durations.parse("DURATION", "30s"));
		return Load.arrivals(List.of(new Segment(rate, rate, duration)), settings.positiveInt("MAX_VUS", 50));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		Thresholds thresholds = Thresholds.of(Slo.of("shortener"), "shortener/reads")
			.rule("http_req_failed", "rate==0")
			.rule("checks", "rate==1");
		return settings.text("LATENCY", "").equals("printed") ? thresholds : thresholds.latencyOfAll("redirect");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		String code = context.settings().text("CODE", "");
		if (code.isEmpty()) {
			throw new SetupFailed("set CODE to a short code the caller owns");
		}
		context.setup().requireService("/v1/short-links/" + code, Callers.setupBearer(context.settings()));
		return List.of(Callers.bearer(httpSampler("describe", context.baseUrl() + "/v1/short-links/" + code))
			.children(check("describe is 200", (r) -> r.status() == 200 || warn(r.status(), r.body()))));
	}

	/** A failed read says what it got, as the run that deletes a pod under it needs to know. */
	private static boolean warn(int status, String body) {
		System.err.println("describe: " + status + " " + body.substring(0, Math.min(200, body.length())));
		return false;
	}

}
