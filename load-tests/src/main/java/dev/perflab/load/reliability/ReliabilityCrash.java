package dev.perflab.load.reliability;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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
 * What callers see through the gateway while a service goes away and comes back (scripts/test/reliability.sh kills it
 * with -9 or stops it with SIGTERM, then starts it again): its settings,
 * requests, judgement ({@link CrashJudge}), printed lines and thresholds. Its caller ends it through CONTROL's
 * {@code POST /v1/stop} once the service has been back a while (exit 103, the summary written); DURATION is only the
 * bound.
 *
 * <pre>
 *   SERVICE    shortener | route | notifier | mail | send (shortener): its creates and reads, at RATE (10/s) for
 *              DURATION (60s), at most 200 in flight; route and mail also STREAMS (3) callers reading back to back
 *              (the route's 20,000 points, a 712 KB EML of one of READER_TOKENS' callers), in flight at the signal
 *   START_MS   the run's time zero (epoch ms), shared with the script that signals the service (now)
 *   DOWN_AT    seconds: the signal (5); BACK_BY: by when it serves again at the latest (40)
 *   HOW        kill (an answer cut at the kill is counted apart, not as bad) | term (nothing may be cut)
 *   RUN        a marker unique to the run, in every created record and request id (now)
 *   BOUND_MS   the longest answer allowed (10000)
 * </pre>
 *
 * Each request carries {@code X-Request-Id: <name>-<part>-<VU>-<iteration>-<RUN>} (part: crash or streams). The
 * summary is {@code crash-<SERVICE>}.
 */
public final class ReliabilityCrash implements Scenario {

	/** The seed's route size: a points answer takes long enough to be in flight at the signal. */
	static final int POINTS = 20_000;

	/** The arrivals' VUs made before the load (k6's preAllocatedVUs). */
	private static final int PREALLOCATED = 10;

	/** The arrivals' iterations in flight at most (k6's maxVUs), unless MAX_IN_FLIGHT says otherwise. */
	private static final int MAX_VUS = 200;

	/** Each service's probe: a route of it through the gateway, answered by the service itself. */
	private static final Map<String, String> PROBES = Map.of("route", "/v1/routes/0", "notifier", "/v1/events/0", "mail",
			"/v2/mailboxes", "send", "/v2/mailboxes", "shortener", "/v1/short-links/none");

	private static final ObjectMapper JSON = new ObjectMapper();

	/** A reader's own 712 KB mail, read whole in the setup: its number and length. */
	private record Eml(String token, String no, int bytes) {
	}

	@Override
	public String name() {
		return "reliability-crash";
	}

	@Override
	public String summaryName(Settings settings) {
		return "crash-" + service(settings);
	}

	@Override
	public Load load(Settings settings) {
		Duration duration = settings.duration().orElse(Durations.parse("DURATION", "60s"));
		double rate = settings.rate().orElse(10.0);
		// the numbers are checked before anything starts
		Requests.startMs(settings);
		Requests.number(settings, "DOWN_AT", 5);
		Requests.number(settings, "BACK_BY", 40);
		Requests.number(settings, "BOUND_MS", 10000);
		Map<String, Load> parts = new LinkedHashMap<>();
		parts.put("crash", Load.arrivals(List.of(new Segment(rate, rate, duration)), MAX_VUS));
		if (streams(service(settings))) {
			parts.put("streams", Load.closed(settings.positiveInt("STREAMS", 3), duration, settings.gracefulStop()));
		}
		return Load.parts(parts);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		// no SLO: a reliability case judges answers, not latencies
		return Thresholds.of(null, null)
			.rule(CrashJudge.BAD, "count==0")
			.rule(CrashJudge.SERVED, "rate>0.99")
			.rule(CrashJudge.CREATED, "count>0")
			.rule(CrashJudge.AFTER, "count>0");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		Settings settings = context.settings();
		String service = service(settings);
		String probe = PROBES.get(service);
		// scripts/test/reliability.sh takes a case for every service: one whose creates are not known here fails
		// here, never measures another service's requests in its name
		if (probe == null) {
			throw new SetupFailed("no crash requests for SERVICE=" + service + ": add its creates and reads to "
					+ "load-tests/src/main/java/dev/perflab/load/reliability/ReliabilityCrash.java");
		}
		Verdicts.declare(context.run(), CrashJudge.COUNTERS, CrashJudge.RATES);
		String run = settings.text("RUN", Long.toString(System.currentTimeMillis()));
		CrashJudge judge = new CrashJudge(service, settings.text("HOW", "kill"), Requests.startMs(settings),
				Requests.number(settings, "DOWN_AT", 5), Requests.number(settings, "BACK_BY", 40),
				Requests.number(settings, "BOUND_MS", 10000), Verdicts.of(context.run()));
		Map<String, String> auth = Callers.setupBearer(settings);
		context.setup().requireService(probe, auth);
		Vus vus = new Vus(settings.tokens(), settings.share());
		vus.preallocate("crash", PREALLOCATED);
		Requesting r = new Requesting(context, judge, run);
		List<ThreadGroupChild> crash = new ArrayList<>(List.of(vus.step("crash")));
		ThreadGroupChild stream = null;
		switch (service) {
			case "route" -> {
				Setup.Reply created = context.setup()
					.post("/v1/routes", json(object("name", "crash-" + run + "-long", "bus", "b", "stops", List.of(),
							"points", line(POINTS))), auth);
				if (created.status() != 201) {
					throw new SetupFailed("POST /v1/routes answered " + created.status() + ": " + created.body());
				}
				String id = created.json("id").asText();
				// read whole once here; each answer under load is then compared by its length, so a streaming caller
				// spends its time in the request (in flight), not in parsing 20,000 points
				Requests.Whole whole = Requests.whole(context.baseUrl(), "/v1/routes/" + id + "/points", auth);
				if (whole.status() != 200 || points(whole.body()) != POINTS) {
					throw new SetupFailed("the points of route " + id + ": " + whole.status());
				}
				int bytes = whole.body().length;
				crash.add(r.create(json(r.request("create", "/v1/routes"),
						(vu) -> object("name", "crash-" + r.marker(vu), "bus", "b", "stops", List.of(), "points", line(20))),
						"route create", (res, vu) -> new CrashJudge.Created(res.json("id"), "crash-" + r.marker(vu))));
				crash.add(r.read("read", "route read", "/v1/routes/" + id));
				// a query of its own per read: the gateway's edge body cache keys by it, so every stream crosses to
				// route and is in flight there, not answered from the gateway's memory
				stream = r.judged(asCaller(r.named(get("points", context.baseUrl(),
						(vu) -> "/v1/routes/" + id + "/points?reader=" + r.marker(vu)), "points", "streams")),
						new CrashJudge.Kind("points stream", null,
								(res, vu) -> res.body().length == bytes && res.endsWith(']')));
			}
			case "notifier" -> {
				Setup.Reply event = context.setup().post("/v1/events", json(object("title", "crash " + run)), auth);
				if (event.status() != 201) {
					throw new SetupFailed("POST /v1/events answered " + event.status() + ": " + event.body());
				}
				String id = event.json("id").asText();
				crash.add(r.create(json(r.request("sign", "/v1/events/" + id + "/guestbook"),
						(vu) -> object("name", "crash", "phone", Requests.guestPhone(vu), "message", "crash-" + r.marker(vu))),
						"guestbook signing", (res, vu) -> new CrashJudge.Created(res.json("id"), "crash-" + r.marker(vu))));
				crash.add(r.read("read", "event read", "/v1/events/" + id));
			}
			case "mail", "send" -> {
				Setup.Reply sent = context.setup()
					.post("/v2/mails/send", json(sendMail(run, "setup", "crash-" + run + "-setup@load.perflab.test")), auth);
				if (sent.status() != 202) {
					throw new SetupFailed("POST /v2/mails/send answered " + sent.status() + ": " + sent.body());
				}
				String no = sent.json("mail_no").asText();
				String delivery = sent.json("delivery_id").asText();
				List<Eml> emls = service.equals("mail") ? emls(context, settings) : List.of();
				awaitDelivery(context.setup(), auth, no, delivery);
				crash.add(r.create(json(r.request("send", "/v2/mails/send"),
						(vu) -> sendMail(run, mine(vu), "crash-" + run + "-" + vu.number + "@load.perflab.test")),
						"mail send", (res, vu) -> new CrashJudge.Created(res.json("mail_no"), "crash-" + run + "-" + mine(vu))));
				if (service.equals("mail")) {
					crash.add(r.read("mailboxes", "mailbox list", "/v2/mailboxes"));
					// the readers take turns by the part's iteration, not by VU: when the streams' three VUs fell on one
					// reader its caller rate (the gateway's 200/s) ran out under the back-to-back reads of a warm mail
					stream = r.judged(r.named(get("eml", context.baseUrl(),
							(vu) -> "/v2/mails/" + eml(emls, vu).no() + "/eml"), "eml", "streams")
						.header("Authorization", (s) -> "Bearer " + eml(emls, Vu.of(s.vars)).token()),
							new CrashJudge.Kind("eml stream", null,
									(res, vu) -> res.body().length == eml(emls, vu).bytes()));
				}
				else {
					crash.add(r.read("delivery", "delivery status", "/v2/mails/" + delivery + "/delivery"));
				}
			}
			default -> {
				Setup.Reply link = context.setup()
					.post("/v1/short-links", json(object("url", "https://example.com/crash/" + run + "/read")), auth);
				if (link.status() != 201) {
					throw new SetupFailed("POST /v1/short-links answered " + link.status() + ": " + link.body());
				}
				String code = link.json("code").asText();
				crash.add(r.create(json(r.request("create", "/v1/short-links"),
						(vu) -> object("url", "https://example.com/crash/" + r.marker(vu))), "link create",
						(res, vu) -> new CrashJudge.Created(res.json("code"), "https://example.com/crash/" + r.marker(vu))));
				crash.add(r.read("describe", "link describe", "/v1/short-links/" + code));
			}
		}
		List<ThreadGroupChild> iteration = new ArrayList<>(
				List.of(Mix.part("crash", crash.toArray(ThreadGroupChild[]::new))));
		if (stream != null) {
			iteration.add(Mix.part("streams", vus.step("streams"), stream));
		}
		return iteration;
	}

	/** The requests of one run, each named, with its own request id, judged. */
	private static final class Requesting {

		private final Context context;

		private final CrashJudge judge;

		private final String run;

		Requesting(Context context, CrashJudge judge, String run) {
			this.context = context;
			this.judge = judge;
			this.run = run;
		}

		/** {@code <RUN>-<VU>-<iteration>}: unique to the VU's iteration within the run. */
		String marker(Vu vu) {
			return this.run + "-" + vu.number + "-" + vu.iteration();
		}

		/** The request with its own X-Request-Id, {@code <name>-<part>-<VU>-<iteration>-<RUN>}. */
		DslHttpSampler named(DslHttpSampler request, String name, String part) {
			return request.header("X-Request-Id",
					(s) -> name + "-" + part + "-" + Vu.of(s.vars).number + "-" + Vu.of(s.vars).iteration() + "-" + this.run);
		}

		/** A GET of the crash part of {@code path} as the VU's caller, with its own id (a POST once given a body). */
		DslHttpSampler request(String name, String path) {
			return named(asCaller(get(name, this.context.baseUrl(), (vu) -> path)), name, "crash");
		}

		/** A create, judged as {@code what}, whose 2xx records what {@code created} says. */
		ThreadGroupChild create(DslHttpSampler request, String what, BiFunction<Answer, Vu, CrashJudge.Created> created) {
			return judged(request, new CrashJudge.Kind(what, created, null));
		}

		/** A read of the crash part of {@code path} as the VU's caller, judged as {@code what}. */
		ThreadGroupChild read(String name, String what, String path) {
			return judged(request(name, path), new CrashJudge.Kind(what, null, null));
		}

		ThreadGroupChild judged(DslHttpSampler request, CrashJudge.Kind kind) {
			return request.children(Judged.by(this.context.run(), (answer, vu) -> this.judge.judge(kind, answer, vu)));
		}

	}

	/** A mail as the k6 script sent it: to one recipient, its subject {@code crash-<RUN> <marker>}. */
	private static Map<String, Object> sendMail(String run, String marker, String to) {
		return object("sender_no", 1, "to", List.of(to), "subject", "crash-" + run + " " + marker, "content",
				"sent while a service went away");
	}

	/** {@code <VU>-<iteration>}: a sent mail's own part of its subject. */
	private static String mine(Vu vu) {
		return vu.number + "-" + vu.iteration();
	}

	/** The reader whose mail the streams' current iteration reads: the part's iterations take them in turn. */
	private static Eml eml(List<Eml> emls, Vu vu) {
		return emls.get((int) (vu.inPart % emls.size()));
	}

	/** A straight line of {@code n} points, as the k6 script drew it. */
	static List<Map<String, Object>> line(int n) {
		List<Map<String, Object>> points = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			points.add(object("lat", 37.5 + i * 0.00001, "lng", 127.0 + i * 0.00001));
		}
		return points;
	}

	private static int points(byte[] body) {
		try {
			JsonNode points = JSON.readTree(body);
			return points != null && points.isArray() ? points.size() : -1;
		}
		catch (IOException ex) {
			return -1;
		}
	}

	/**
	 * Mail's readers: each reads one of its own seeded mails with attachments (712 KB), found oldest first (the seeded
	 * mails, before any a test sent: the mailbox grows with every run) and read whole once here; each answer under
	 * load is then compared by its length.
	 */
	private static List<Eml> emls(Context context, Settings settings) {
		List<String> readers = Arrays.stream(settings.text("READER_TOKENS", "").trim().split("\\s+"))
			.filter((t) -> !t.isEmpty())
			.toList();
		if (readers.isEmpty()) {
			throw new SetupFailed("READER_TOKENS is empty");
		}
		List<Eml> emls = new ArrayList<>();
		for (String token : readers) {
			emls.add(eml(context, token));
		}
		return emls;
	}

	private static Eml eml(Context context, String token) {
		Map<String, String> headers = Map.of("Authorization", "Bearer " + token);
		for (int page = 1; page <= 20; page++) {
			Setup.Reply list = context.setup()
				.get("/v2/mails?sort%5Breceived_date%5D=asc&size=100&page=" + page, headers);
			if (list.status() != 200) {
				throw new SetupFailed("GET /v2/mails answered " + list.status() + ": " + list.body());
			}
			for (JsonNode mail : list.json("mails")) {
				long size = mail.path("size").asLong();
				if (size > 100_000 && size < 2_000_000) {
					String no = mail.path("no").asText();
					Requests.Whole whole = Requests.whole(context.baseUrl(), "/v2/mails/" + no + "/eml", headers);
					if (whole.status() != 200) {
						throw new SetupFailed("the EML of mail " + no + ": " + whole.status());
					}
					return new Eml(token, no, whole.body().length);
				}
			}
		}
		throw new SetupFailed("a reader has no seeded mail of 712 KB (make seed)");
	}

	/** Send knows the delivery once mail's outbox relay handed it over (within a second or two). */
	private static void awaitDelivery(Setup setup, Map<String, String> auth, String no, String delivery) {
		for (int i = 0; i < 60; i++) {
			if (setup.get("/v2/mails/" + delivery + "/delivery", auth).status() == 200) {
				return;
			}
			try {
				Thread.sleep(500);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new SetupFailed("interrupted during setup");
			}
		}
		throw new SetupFailed("the delivery " + delivery + " of mail " + no + " never reached send");
	}

	private static String service(Settings settings) {
		return settings.text("SERVICE", "shortener");
	}

	/** The route's readers stream points, mail's an EML of 712 KB, back to back: answers in flight at the signal. */
	private static boolean streams(String service) {
		return service.equals("route") || service.equals("mail");
	}

}
