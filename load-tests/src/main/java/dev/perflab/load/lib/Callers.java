package dev.perflab.load.lib;

import java.util.Map;

import org.apache.jmeter.threads.JMeterVariables;

import us.abstracta.jmeter.javadsl.http.DslHttpSampler;

/**
 * Who calls: through the gateway each iteration's caller's bearer token (CALLER_TOKENS round robin, else TOKEN), so
 * the gateway's per-caller rate limit sees many users as a real office does; straight at a service instance (a
 * benchmark) an IDENTITY token signed as the gateway, for the scenarios that allow it.
 */
public final class Callers {

	private Callers() {
	}

	/** The request sent as the iteration's caller. */
	public static DslHttpSampler bearer(DslHttpSampler request) {
		return request.header("Authorization", "Bearer ${" + Iteration.TOKEN + "}");
	}

	/** The request sent as the first caller, whatever the iteration's (the one whose data the seed filled). */
	public static DslHttpSampler first(Settings settings, DslHttpSampler request) {
		return request.header("Authorization", setupBearer(settings).get("Authorization"));
	}

	/** The request sent with IDENTITY when it is set, else as the iteration's caller. */
	public static DslHttpSampler identityOrBearer(Settings settings, DslHttpSampler request) {
		String identity = settings.text("IDENTITY", "");
		return identity.isEmpty() ? bearer(request) : request.header("X-Perflab-Identity", identity);
	}

	/** The index of the iteration's caller among the tokens (0 without any). */
	public static int caller(JMeterVariables vars) {
		return vars.getObject(Iteration.VARIABLE) instanceof Iteration i ? i.caller() : 0;
	}

	/** The setup's headers: the first caller's bearer token. */
	public static Map<String, String> setupBearer(Settings settings) {
		if (settings.tokens().isEmpty()) {
			throw new SetupFailed("TOKEN is not set: run through scripts/load/load.sh or pass TOKEN=$(make -s token)");
		}
		return Map.of("Authorization", "Bearer " + settings.tokens().get(0));
	}

	/** The setup's headers with IDENTITY when it is set. */
	public static Map<String, String> setupIdentityOrBearer(Settings settings) {
		String identity = settings.text("IDENTITY", "");
		return identity.isEmpty() ? setupBearer(settings) : Map.of("X-Perflab-Identity", identity);
	}

}
