package dev.perflab.load.mail;

import java.util.List;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Expect;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Thresholds;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * Smoke of every mail endpoint through the gateway, seed 000's mix at a small bounded rate: mailboxes, the list, a
 * mail of each EML shape, a send, and a guessed read-receipt key.
 */
public final class MailSmoke implements Scenario {

	private static final String SEND = """
			{"sender_no":1,"to":["jerry@example.com"],"cc":[],"bcc":[],"subject":"jmeter smoke",\
			"content":"contentcontent121212","is_save":true,"is_receipt_confirm":true}""";

	@Override
	public String name() {
		return "mail-smoke";
	}

	@Override
	public Load load(Settings settings) {
		return Load.open(10, 60);
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("mail"), null)
			.failures()
			.latency("list", "mail_list_duration")
			.latency("read", "mail_read_duration");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		String base = context.baseUrl();
		context.setup().requireService("/v2/mailboxes", Callers.setupBearer(context.settings()));
		Mails mails = Mails.find(context);
		return List.of(
				Callers.bearer(httpSampler("mailboxes", base + "/v2/mailboxes"))
					.children(check("mailboxes are listed", (r) -> r.status() == 200)),
				Callers.bearer(httpSampler("list", base + "/v2/mails?sort%5Breceived_date%5D=desc"
						+ "&with=approval_mail&with=receipt_confirm&with=encrypted"))
					.children(check("list has a total", (r) -> r.status() == 200 && r.json("total").asLong() > 0)),
				Callers.bearer(httpSampler("read", (s) -> base + "/v2/mails/" + mails.pick(Numbers.iteration(s.vars))))
					.children(check("mail is read", (r) -> r.status() == 200)),
				Callers.bearer(httpSampler("send", base + "/v2/mails/send").post(SEND, ContentType.APPLICATION_JSON))
					.children(check("send is accepted with a delivery id",
							(r) -> r.status() == 202 && !r.json("delivery_id").asText().isEmpty())),
				// the public read-receipt link: its key is the server's 128 random bits, so a guessed one learns nothing
				httpSampler("receipt-confirm",
						(s) -> base + "/v2/office/1/receipt-confirm/" + guessedKey(Numbers.iteration(s.vars)))
					.children(Expect.statuses(404), check("a guessed receipt key is 404 problem+json",
							(r) -> r.status() == 404 && r.header("Content-Type").startsWith("application/problem+json"))));
	}

	/** A well-formed key: 22 base64url characters. */
	static String guessedKey(long number) {
		String key = "jmx" + number;
		return (key + "A".repeat(22)).substring(0, 22);
	}

}
