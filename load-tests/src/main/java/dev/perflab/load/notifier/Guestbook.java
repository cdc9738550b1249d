package dev.perflab.load.notifier;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
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
		Setup.Reply reply = context.setup().post("/v1/events", "{\"title\":\"" + title + "\"}",
				Callers.setupIdentityOrBearer(context.settings()));
		if (reply.status() != 201) {
			throw new SetupFailed("creating an event answered " + reply.status() + ": " + reply.body());
		}
		return reply.json("id").asLong();
	}

	/** POST /v1/events/{event}/guestbook, named {@code sign}. */
	public static DslHttpSampler sign(Scenario.Context context, long event) {
		return Callers.identityOrBearer(context.settings(),
				httpSampler("sign", context.baseUrl() + "/v1/events/" + event + "/guestbook").post((s) -> {
					long n = Numbers.iteration(s.vars);
					return "{\"name\":\"guest " + n + "\",\"phone\":\"" + phone(n)
							+ "\",\"message\":\"congratulations on the opening\"}";
				}, ContentType.APPLICATION_JSON));
	}

	static String phone(long iteration) {
		return "010" + (10_000_000 + iteration % 90_000_000);
	}

}
