package dev.perflab.load.route;

import java.util.List;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Keep;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Iteration;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * Smoke of every route endpoint through the gateway: a route created, its metadata, its points in each encoding,
 * gzip and the 304 of a repeated read.
 */
public final class RouteSmoke implements Scenario {

	private static final String ETAG = "route.etag";

	@Override
	public String name() {
		return "route-smoke";
	}

	@Override
	public Load load(Settings settings) {
		return Load.open(10, 40);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("route"), null).failures().latency("points");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		context.setup().requireService("/v1/routes/1", Callers.setupIdentityOrBearer(context.settings()));
		long route = Routes.create(context, 2000, "jmeter smoke");
		return List.of(
				Callers.identityOrBearer(context.settings(), httpSampler("route", context.baseUrl() + "/v1/routes/" + route))
					.children(check("route has its 2,000 points counted",
							(r) -> r.status() == 200 && r.json("point_count").asInt() == 2000)),
				Routes.points(context, "points", route).children(
						check("points are 200 in the asked encoding", (r) -> r.status() == 200 && r.header("Content-Type")
							.startsWith(Routes.accept(Long.parseLong(r.var(Iteration.NUMBER))))),
						check("points carry a strong ETag", (r) -> r.header("ETag").startsWith("\"")),
						Keep.as(ETAG, (r) -> r.header("ETag"))),
				Routes.points(context, "points-revalidate", route).header("If-None-Match", "${" + ETAG + "}")
					.children(check("a repeated read is 304", (r) -> r.status() == 304)));
	}

}
