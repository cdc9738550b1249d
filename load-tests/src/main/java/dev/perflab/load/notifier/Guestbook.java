package dev.perflab.load.notifier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Setup;
import dev.perflab.load.lib.SetupFailed;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.http.DslHttpSampler;

import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * The notifier's guestbook steps: an event created for the run (setup) and a signing of its guestbook, with a phone
 * number of the iteration's own (unique within a run, the same on a rerun), as the iteration's caller.
 */
public final class Guestbook {

	private Guestbook() {
	}

	/** Creates an event for the run and answers its id. */
	public static long createEvent(Scenario.Context context, String title) {
		return createEvent(context, title, Callers.setupIdentityOrBearer(context.settings()));
	}

	private static long createEvent(Scenario.Context context, String title, Map<String, String> headers) {
		Setup.Reply reply = context.setup().post("/v1/events", "{\"title\":\"" + title + "\"}", headers);
		if (reply.status() != 201) {
			throw new SetupFailed("creating an event answered " + reply.status() + ": " + reply.body());
		}
		return reply.json("id").asLong();
	}

	/**
	 * Creates an event for each caller, in its own office (seed 001 created a new QR-code event for its run); one,
	 * with IDENTITY. Answers their ids in the callers' order.
	 */
	public static List<Long> createEventPerCaller(Scenario.Context context, String title) {
		Settings settings = context.settings();
		if (!settings.text("IDENTITY", "").isEmpty()) {
			return List.of(createEvent(context, title));
		}
		Callers.setupBearer(settings);
		List<Long> events = new ArrayList<>();
		for (String token : settings.tokens()) {
			events.add(createEvent(context, title, Map.of("Authorization", "Bearer " + token)));
		}
		return events;
	}

	/** POST /v1/events/{event}/guestbook, named {@code sign}. */
	public static DslHttpSampler sign(Scenario.Context context, long event) {
		return sign(context, List.of(event));
	}

	/** POST /v1/events/{event}/guestbook, named {@code sign}, of the event of the iteration's caller. */
	public static DslHttpSampler sign(Scenario.Context context, List<Long> eventsByCaller) {
		return Callers.identityOrBearer(context.settings(), httpSampler("sign", (s) -> context.baseUrl() + "/v1/events/"
				+ eventsByCaller.get(Callers.caller(s.vars) % eventsByCaller.size()) + "/guestbook").post((s) -> {
					long n = Numbers.iteration(s.vars);
					return "{\"name\":\"guest " + n + "\",\"phone\":\"" + phone(n)
							+ "\",\"message\":\"congratulations on the opening\"}";
				}, ContentType.APPLICATION_JSON));
	}

	static String phone(long iteration) {
		return "010" + (10_000_000 + iteration % 90_000_000);
	}

}
