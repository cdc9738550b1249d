package dev.perflab.load.shortener;

import java.util.List;

import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * One redirect URL at a constant arrival rate (an open model: the rate is offered whatever the latency, unlike wrk's
 * closed loop of connections): the same rate against the shortener direct, a bare Spring Cloud Gateway and the
 * gateway's proxy hop, the p50 and p99 each adds read side by side. With VUS, a closed loop of that many callers
 * instead, each sending its next request when the last is answered, as wrk's connections do: the generator's own cost
 * per request measured beside wrk's on the same URL (scripts/bench/bench-generator.sh).
 *
 * <pre>
 *   URL=http://127.0.0.1:8083/s/&lt;code&gt; RATE=5000 DURATION=15s WARMUP=0s MAX_VUS=1000
 *   URL=http://127.0.0.1:18302/s/x VUS=64 DURATION=20s WARMUP=0s
 * </pre>
 */
public final class ShortenerHop implements Scenario {

	@Override
	public String name() {
		return "shortener-hop";
	}

	@Override
	public Load load(Settings settings) {
		if (!settings.text("VUS", "").isEmpty()) {
			return Load.closed(settings.positiveInt("VUS", 64),
					settings.duration().orElse(Durations.parse("DURATION", "20s")), settings.gracefulStop());
		}
		return Load.open(1000, settings.positiveInt("MAX_VUS", 1000));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("shortener"), null).failures().latency("redirect");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		String url = context.settings().text("URL", "");
		if (url.isEmpty()) {
			throw new SetupFailed("set URL to a redirect to time");
		}
		return List.of(httpSampler("redirect", url).followRedirects(false)
			.children(check("a redirect", (r) -> r.status() == 301 || r.status() == 302)));
	}

}
