package dev.perflab.load.route;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * Seed 002's load: many readers of one 20k-point route at once, a closed crowd on purpose (the seed's users are a
 * fixed 1,000). Every reader accepts gzip, as a browser or app does.
 *
 * <pre>
 *   MODE          wave: VUS readers, one request each, all started together (the seed's JMeter plan), at most
 *                 MAX_DURATION (120s); sustained: VUS readers reading for DURATION (20s)
 *   ROUTE         the route's id; ROUTES=id,id,... spreads the readers over several (reader n reads the n-th, round
 *                 robin); POINTS_PATH a path to read instead
 *   VUS (1000)    IDENTITY (straight at a route instance: an identity token signed as the gateway)
 * </pre>
 */
public final class RouteReaders implements Scenario {

	@Override
	public String name() {
		return "route-readers";
	}

	@Override
	public Load load(Settings settings) {
		int vus = settings.positiveInt("VUS", 1000);
		Duration gracefulStop = Duration.ofSeconds(30);
		return switch (settings.text("MODE", "wave")) {
			case "wave" -> Load.once(vus, Durations.parse("MAX_DURATION", settings.text("MAX_DURATION", "120s")),
					gracefulStop);
			case "sustained" -> Load.closed(vus, settings.duration().orElse(Durations.parse("DURATION", "20s")),
					gracefulStop);
			default -> throw new BadInput("MODE=" + settings.text("MODE", "") + ": one of wave, sustained");
		};
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("route"), "route/readers")
			.rule("http_req_failed", "rate==0")
			.rule("checks", "rate==1")
			.latencyOfAll("points");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		List<String> routes = routes(context.settings());
		String pointsPath = context.settings().text("POINTS_PATH", "");
		if (routes.isEmpty() && pointsPath.isEmpty()) {
			throw new SetupFailed("set ROUTE (or ROUTES) to the id of a route the caller may read");
		}
		return List.of(Callers.identityOrBearer(context.settings(), httpSampler("points",
				(s) -> context.baseUrl() + path(routes, pointsPath, Numbers.vu(s.vars))))
			.responseTimeout(Duration.ofSeconds(60))
			.children(check("points are 200", (r) -> r.status() == 200)));
	}

	/** ROUTES, else ROUTE, as a list of ids. */
	static List<String> routes(Settings settings) {
		return Arrays.stream(settings.text("ROUTES", settings.text("ROUTE", "")).split(","))
			.map(String::trim)
			.filter((id) -> !id.isEmpty())
			.toList();
	}

	/** What reader {@code thread} (k6's VU thread + 1) reads: POINTS_PATH, else its route of ROUTES in turn. */
	static String path(List<String> routes, String pointsPath, int thread) {
		return !pointsPath.isEmpty() ? pointsPath : "/v1/routes/" + routes.get(thread % routes.size()) + "/points";
	}

}
