package dev.perflab.load.shortener;

import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static us.abstracta.jmeter.javadsl.JmeterDsl.forLoopController;
import static us.abstracta.jmeter.javadsl.JmeterDsl.ifController;

/**
 * Smoke of the shortener through the gateway: each iteration creates one link and follows it ten times (seed 004's
 * mix). Small and bounded: it checks the SLOs, it does not look for the limit.
 */
public final class ShortenerSmoke implements Scenario {

	@Override
	public String name() {
		return "shortener-smoke";
	}

	@Override
	public Load load(Settings settings) {
		return Load.open(20, 100);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("shortener"), null)
			.failures()
			.latency("create", "shortener_create_duration")
			.latency("redirect", "shortener_redirect_duration");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		int probe = context.setup().requireService("/s/setup-probe-unknown", Map.of()).status();
		if (probe != 404) {
			throw new SetupFailed("gateway at " + context.baseUrl() + ": an unknown code answered " + probe + ", not 404");
		}
		return List.of(Links.create(context.baseUrl()), ifController("${" + Links.CREATED + "}",
				forLoopController(10, Links.follow(context, "shortener_edge_cache_hits"))));
	}

}
