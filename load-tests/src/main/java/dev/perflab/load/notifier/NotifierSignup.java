package dev.perflab.load.notifier;

import java.time.Duration;
import java.util.List;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Tally;
import dev.perflab.load.lib.Thresholds;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * Seed 003's profile: one user signing up again and again for DURATION (the seed's minute), each sign-up a new member
 * whose welcome mail the relay takes 1 s to accept. The seed's SLO, a sign-up within 100 ms, is the member endpoint's
 * statement for notifier/signup; the seed's start (in-transaction-sync) waited for the mail inside the request.
 *
 * <pre>
 *   VUS (1)  DURATION (1m)
 * </pre>
 */
public final class NotifierSignup implements Scenario {

	static final String SIGNED_UP = "a sign-up is 201";

	@Override
	public String name() {
		return "notifier-signup";
	}

	@Override
	public Load load(Settings settings) {
		return Load.closed(settings.positiveInt("VUS", 1), settings.duration().orElse(Durations.parse("DURATION", "1m")),
				Duration.ofSeconds(30));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("notifier"), "notifier/signup")
			.latency("member")
			.rule("checks{check:" + SIGNED_UP + "}", "rate==1");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		context.setup().requireService("/v1/notifications/1", Callers.setupIdentityOrBearer(context.settings()));
		long run = System.currentTimeMillis();
		return List.of(Callers.identityOrBearer(context.settings(), httpSampler("member", context.baseUrl() + "/v1/members")
			.post((s) -> "{\"email\":\"seed003-" + run + "-" + (Numbers.vu(s.vars) + 1) + "-" + Numbers.iteration(s.vars)
					+ "@example.com\",\"name\":\"jmeter\",\"password\":\"correct horse battery\"}",
					ContentType.APPLICATION_JSON))
			.children(check(SIGNED_UP, (r) -> r.status() == 201),
					Tally.count(context, "notifier_signed_up", (r) -> r.status() == 201)));
	}

}
