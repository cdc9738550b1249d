package dev.perflab.load.notifier;

import java.util.List;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Expect;
import dev.perflab.load.lib.Iteration;
import dev.perflab.load.lib.Keep;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;
import static us.abstracta.jmeter.javadsl.JmeterDsl.ifController;

/**
 * Smoke of every notifier endpoint through the gateway: an event, a guestbook signing and its SMS, the guestbook
 * page, a sign-up and its welcome mail, a duplicate sign-up refused.
 */
public final class NotifierSmoke implements Scenario {

	private static final String SIGNED = "sign.created";

	private static final String NOTIFICATION = "sign.notification";

	@Override
	public String name() {
		return "notifier-smoke";
	}

	/**
	 * Each iteration signs a member up, and BCrypt costs ~100 ms of a core per sign-up: at 5/s the smoke alone kept
	 * ~0.8 of a 2-core lab's cores busy on the notifier; at 2/s it is a smoke, and a load test's rate is RATE's.
	 */
	@Override
	public Load load(Settings settings) {
		return Load.open(2, 20);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("notifier"), null).failures().latency("sign").latency("member");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		String base = context.baseUrl();
		context.setup().requireService("/v1/notifications/1", Callers.setupIdentityOrBearer(context.settings()));
		long event = Guestbook.createEvent(context, "jmeter smoke");
		// the same address twice in one iteration: the second sign-up is refused
		String member = "{\"email\":\"jmeter-${" + Iteration.NUMBER + "}-" + System.currentTimeMillis()
				+ "@example.com\",\"name\":\"jmeter\",\"password\":\"correct horse battery\"}";
		return List.of(
				Guestbook.sign(context, event).children(check("signing the guestbook is 201", (r) -> r.status() == 201),
						Keep.as(SIGNED, (r) -> Boolean.toString(r.status() == 201)),
						Keep.as(NOTIFICATION, (r) -> r.json("notification_id").asText())),
				ifController("${" + SIGNED + "}", Callers.identityOrBearer(context.settings(),
						httpSampler("notification", base + "/v1/notifications/${" + NOTIFICATION + "}"))
					.children(check("its SMS notification is readable",
							(r) -> r.status() == 200 && r.json("channel").asText().equals("sms")))),
				Callers.identityOrBearer(context.settings(),
						httpSampler("guestbook", base + "/v1/events/" + event + "/guestbook?page=0"))
					.children(check("the guestbook page lists entries",
							(r) -> r.status() == 200 && r.json("entries").size() > 0)),
				Callers.identityOrBearer(context.settings(),
						httpSampler("member", base + "/v1/members").post(member, ContentType.APPLICATION_JSON))
					.children(check("a sign-up is 201", (r) -> r.status() == 201)),
				Callers.identityOrBearer(context.settings(),
						httpSampler("member-duplicate", base + "/v1/members").post(member, ContentType.APPLICATION_JSON))
					.children(Expect.statuses(409), check("the same email again is 409 problem+json",
							(r) -> r.status() == 409 && r.header("Content-Type").startsWith("application/problem+json"))));
	}

}
