package dev.perflab.load.mail;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Callers;
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
 * Seed 000's load shapes through the gateway, or straight at a mail instance with BASE_URL and IDENTITY, an identity
 * token as the gateway signs it for mail ({@code scripts/lib/jwt.sh identity perflab-gateway alice 1 mail 3600}).
 *
 * <pre>
 *   SCENARIO=list        GET /v2/mails with 200 VUs (the LEFT JOIN count)
 *   SCENARIO=read-large  GET /v2/mails/{22 MB} with 80 VUs (the OOM)
 *   DURATION (60s)  LARGE_MAIL (the 22 MB mail's number, with IDENTITY)
 * </pre>
 *
 * The summary is named after the shape, {@code mail-list} or {@code mail-read-large}.
 */
public final class MailLoad implements Scenario {

	/** Each shape's crowd; its latency SLO is the endpoint's statement for mail/load. */
	private static final Map<String, Integer> VUS = Map.of("list", 200, "read-large", 80);

	@Override
	public String name() {
		return "mail-load";
	}

	@Override
	public String summaryName(Settings settings) {
		return "mail-" + shape(settings);
	}

	@Override
	public Load load(Settings settings) {
		return Load.closed(VUS.get(shape(settings)), settings.duration().orElse(Durations.parse("DURATION", "60s")),
				Duration.ofSeconds(30));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		Thresholds thresholds = Thresholds.of(Slo.of("mail"), "mail/load").failed();
		return shape(settings).equals("list") ? thresholds.latency("list") : thresholds.latencyOf("read", "read-large");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		Settings settings = context.settings();
		String base = context.baseUrl();
		if (shape(settings).equals("list")) {
			large(context);
			return List.of(Callers.identityOrBearer(settings, httpSampler("list", base + "/v2/mails"))
				.children(check("list is 200", (r) -> r.status() == 200)));
		}
		return List.of(Callers.identityOrBearer(settings, httpSampler("read-large", base + "/v2/mails/" + large(context)))
			.children(check("read is 200", (r) -> r.status() == 200)));
	}

	/** The 22 MB mail: LARGE_MAIL straight at an instance, else found through the gateway (which a list needs too). */
	private static long large(Context context) {
		if (context.settings().text("IDENTITY", "").isEmpty()) {
			return Mails.find(context).large();
		}
		String large = context.settings().text("LARGE_MAIL", "");
		if (!large.matches("\\d+")) {
			throw new SetupFailed("set LARGE_MAIL when calling a mail instance directly");
		}
		return Long.parseLong(large);
	}

	private static String shape(Settings settings) {
		String shape = settings.text("SCENARIO", "list");
		if (!VUS.containsKey(shape)) {
			throw new BadInput("SCENARIO=" + shape + ": one of list, read-large");
		}
		return shape;
	}

}
