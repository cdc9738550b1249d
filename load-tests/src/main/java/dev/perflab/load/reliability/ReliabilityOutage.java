package dev.perflab.load.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Mix;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Segment;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Setup;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;
import us.abstracta.jmeter.javadsl.http.DslHttpSampler;

import static dev.perflab.load.reliability.Requests.asCaller;
import static dev.perflab.load.reliability.Requests.get;
import static dev.perflab.load.reliability.Requests.json;
import static dev.perflab.load.reliability.Requests.object;

/**
 * What callers see through the gateway while a store is down (scripts/test/reliability.sh stops and starts it): its
 * settings, requests, judgement ({@link OutageJudge}) and thresholds.
 *
 * <pre>
 *   STORE      mariadb | mongo-wire | redis (mariadb): the requests that need that store, at RATE (5/s) for
 *              DURATION (50s), at most 200 in flight
 *   START_MS   the run's time zero (epoch ms) the phases count from, shared with the script that stops the store (now)
 *   OUTAGE_AT, OUTAGE_FOR, GRACE   seconds: the store is down from OUTAGE_AT (5) for OUTAGE_FOR (20); GRACE (15) after
 *              it is back
 *   BOUND_MS   the longest answer allowed (10000)
 * </pre>
 *
 * The caller is a user with a mail account (the seed's alice): mail answers 403 to anyone else. The summary is
 * {@code outage-<STORE>}.
 */
public final class ReliabilityOutage implements Scenario {

	/** The arrivals' VUs made before the load (k6's preAllocatedVUs). */
	private static final int PREALLOCATED = 10;

	/** The arrivals' iterations in flight at most (k6's maxVUs), unless MAX_IN_FLIGHT says otherwise. */
	private static final int MAX_VUS = 200;

	private static final List<String> STORES = List.of("mariadb", "mongo-wire", "redis");

	@Override
	public String name() {
		return "reliability-outage";
	}

	@Override
	public String summaryName(Settings settings) {
		return "outage-" + store(settings);
	}

	@Override
	public Load load(Settings settings) {
		Duration duration = settings.duration().orElse(Durations.parse("DURATION", "50s"));
		double rate = settings.rate().orElse(5.0);
		// the numbers are checked before anything starts
		Requests.startMs(settings);
		Requests.number(settings, "OUTAGE_AT", 5);
		Requests.number(settings, "OUTAGE_FOR", 20);
		Requests.number(settings, "GRACE", 15);
		Requests.number(settings, "BOUND_MS", 10000);
		return Load.parts(Map.of("outage", Load.arrivals(List.of(new Segment(rate, rate, duration)), MAX_VUS)));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		// no SLO: a reliability case judges answers, not latencies
		return Thresholds.of(null, null).rule(OutageJudge.BAD, "count==0").rule(OutageJudge.SERVED, "rate>0.99");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		Settings settings = context.settings();
		String store = store(settings);
		if (!STORES.contains(store)) {
			throw new SetupFailed("no outage requests for STORE=" + store + ": one of " + String.join(", ", STORES));
		}
		Verdicts.declare(context.run(), OutageJudge.COUNTERS, OutageJudge.RATES);
		OutageJudge judge = new OutageJudge(Requests.startMs(settings), Requests.number(settings, "OUTAGE_AT", 5),
				Requests.number(settings, "OUTAGE_FOR", 20), Requests.number(settings, "GRACE", 15),
				Requests.number(settings, "BOUND_MS", 10000), Verdicts.of(context.run()));
		Map<String, String> auth = Callers.setupBearer(settings);
		context.setup().requireService("/v2/mailboxes", auth);
		String event = created(context.setup(), "/v1/events", object("title", "outage"), auth, "id");
		List<Map<String, Object>> points = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			points.add(object("lat", 37.5 + i * 0.0001, "lng", 127.0 + i * 0.0001));
		}
		String route = created(context.setup(), "/v1/routes",
				object("name", "outage", "bus", "b", "stops", List.of(), "points", points), auth, "id");
		String code = created(context.setup(), "/v1/short-links", object("url", "https://example.com/outage"), auth, "code");
		String base = context.baseUrl();
		List<ThreadGroupChild> mysql = List.of(
				judged(context, judge, "mail list", asCaller(get("mail-list", base, (vu) -> "/v2/mails?size=5"))),
				judged(context, judge, "route", asCaller(get("route", base, (vu) -> "/v1/routes/" + route))),
				judged(context, judge, "guestbook signing",
						json(asCaller(get("sign", base, (vu) -> "/v1/events/" + event + "/guestbook")),
								(vu) -> object("name", "guest", "phone", Requests.guestPhone(vu), "message", "hi"))));
		List<ThreadGroupChild> mongo = List.of(
				judged(context, judge, "link create", json(asCaller(get("create", base, (vu) -> "/v1/short-links")),
						(vu) -> object("url", "https://example.com/outage/" + vu.number + "/" + vu.iteration()))),
				judged(context, judge, "link describe",
						asCaller(get("describe", base, (vu) -> "/v1/short-links/" + code))),
				judged(context, judge, "redirect", get("redirect", base, (vu) -> "/s/" + code).followRedirects(false)));
		Vus vus = new Vus(settings.tokens(), settings.share());
		vus.preallocate("outage", PREALLOCATED);
		List<ThreadGroupChild> steps = new ArrayList<>(List.of(vus.step("outage")));
		steps.addAll(switch (store) {
			case "mariadb" -> mysql;
			case "mongo-wire" -> mongo;
			default -> {
				List<ThreadGroupChild> both = new ArrayList<>(mysql);
				both.addAll(mongo);
				yield both;
			}
		});
		return List.of(Mix.part("outage", steps.toArray(ThreadGroupChild[]::new)));
	}

	private static ThreadGroupChild judged(Context context, OutageJudge judge, String what, DslHttpSampler request) {
		return request.children(Judged.by(context.run(), (answer, vu) -> judge.judge(what, answer)));
	}

	/** POSTs {@code body} to {@code path} in the setup and answers the created record's {@code field}. */
	private static String created(Setup setup, String path, Object body, Map<String, String> auth, String field) {
		Setup.Reply reply = setup.post(path, json(body), auth);
		if (reply.status() != 201) {
			throw new SetupFailed("POST " + path + " answered " + reply.status() + ": " + reply.body());
		}
		return reply.json(field).asText();
	}

	private static String store(Settings settings) {
		return settings.text("STORE", "mariadb");
	}

}
