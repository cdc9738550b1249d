package dev.perflab.load.office;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Iteration;
import dev.perflab.load.lib.Keep;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Mix;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Response;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;
import dev.perflab.load.notifier.Guestbook;
import dev.perflab.load.shortener.Links;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.forLoopController;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;
import static us.abstracta.jmeter.javadsl.JmeterDsl.ifController;

/**
 * A day in the office, every service at once through the gateway, each part at its share of the traffic: people
 * reading their mailboxes (most of it), sending mail, following and creating short links (seed 004's mix),
 * dispatchers reading bus routes (seed 002), guests signing an event's guestbook (seed 001). RATE scales the whole
 * mix; CALLER_TOKENS spreads it over many users (one user at this rate alone would meet the gateway's per-caller
 * limit). Each request is held to its service's SLO, with what an SLO states for office/day instead.
 *
 * <pre>
 *   RATE (a factor, 1)  MAX_VUS (50 in flight per part)  ROUTES (5: the seeded routes a dispatcher reads)
 * </pre>
 */
public final class OfficeDay implements Scenario {

	/** Each part's iterations/s at RATE=1. */
	static final Map<String, Double> MIX = mix();

	private static final String MAIL = "day.mail";

	private static final String READ = "day.read";

	private static final String SEND = """
			{"sender_no":1,"to":["jerry@example.com"],"subject":"jmeter day in the office",\
			"content":"minutes of the meeting","is_save":true}""";

	private static Map<String, Double> mix() {
		Map<String, Double> mix = new LinkedHashMap<>();
		mix.put("mailbox", 8.0);
		mix.put("send", 1.0);
		mix.put("links", 2.0);
		mix.put("routes", 2.0);
		mix.put("guestbook", 2.0);
		return mix;
	}

	@Override
	public String name() {
		return "office-day";
	}

	@Override
	public Load load(Settings settings) {
		return Load.mix(MIX, settings.positiveInt("MAX_VUS", 50));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		Slo mail = Slo.of("mail");
		Slo notifier = Slo.of("notifier");
		Slo route = Slo.of("route");
		Slo shortener = Slo.of("shortener");
		return Thresholds.of(mail, "office/day")
			.failures(mail, notifier, route, shortener)
			.latency("list")
			.latency("read")
			.latency("send")
			.service(shortener)
			.latency("create")
			.latency("redirect")
			.service(route)
			.latency("points")
			.service(notifier)
			.latency("sign");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		Settings settings = context.settings();
		String base = context.baseUrl();
		context.setup().requireService("/v2/mailboxes", Callers.setupBearer(settings));
		context.setup().requireService("/v1/routes/1", Callers.setupBearer(settings));
		long event = Guestbook.createEvent(context, "jmeter day in the office");
		int routes = settings.positiveInt("ROUTES", 5);
		// the mailbox the seed filled is the first caller's (alice's): mail is read and sent as that user, the rest
		// of the mix by every caller
		return List.of(Mix.part("mailbox",
				Callers.first(settings, httpSampler("list", base + "/v2/mails?size=20&sort%5Breceived_date%5D=desc"))
					.children(check("the mailbox is listed", (r) -> r.status() == 200),
							Keep.as(MAIL, OfficeDay::smallMail),
							Keep.as(READ, (r) -> Boolean.toString(!smallMail(r).isEmpty()))),
				ifController("${" + READ + "}",
						Callers.first(settings, httpSampler("read", base + "/v2/mails/${" + MAIL + "}"))
							.children(check("a mail is read", (r) -> r.status() == 200)))),
				Mix.part("send", Callers.first(settings, httpSampler("send", base + "/v2/mails/send")
					.post(SEND, ContentType.APPLICATION_JSON))
					.children(check("a send is accepted with a delivery id",
							(r) -> r.status() == 202 && !r.json("delivery_id").asText().isEmpty()))),
				// seed 004's mix: one link created, followed ten times
				Mix.part("links", Links.create(base, "a link is created"), ifController("${" + Links.CREATED + "}",
						forLoopController(10, Links.redirect(base).children(check("a link redirects to its URL",
								(r) -> (r.status() == 301 || r.status() == 302) && Links.pointsAtTheLink(r)))))),
				// a dispatcher's screen: one of the seeded routes, every point (gzip, as a browser asks)
				Mix.part("routes", Callers.bearer(httpSampler("points",
						(s) -> base + "/v1/routes/" + (1 + Numbers.iteration(s.vars) % routes) + "/points"))
					.children(check("a route is read whole", (r) -> r.status() == 200))),
				Mix.part("guestbook", Guestbook.sign(context, event)
					.children(check("a guest signs the guestbook", (r) -> r.status() == 201))));
	}

	private static String smallMail(Response list) {
		return pick(list.json("mails"), Long.parseLong(list.var(Iteration.NUMBER)));
	}

	/** The mail iteration {@code number} reads: one of the listed mails under 100 KB in turn, "" when none is. */
	static String pick(JsonNode mails, long number) {
		List<JsonNode> small = new ArrayList<>();
		mails.forEach((m) -> {
			if (m.path("size").asLong() < 100_000) {
				small.add(m);
			}
		});
		return small.isEmpty() ? "" : small.get((int) (number % small.size())).path("no").asText();
	}

}
