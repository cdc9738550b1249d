package dev.perflab.load.mail;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Tally;
import dev.perflab.load.lib.Thresholds;

import org.apache.http.entity.ContentType;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * POST /v2/mails/send under seed 000's load: VUS concurrent senders (a closed model on purpose: pool starvation is
 * a function of requests in flight, not of the arrival rate), read receipts on, one recipient per sender.
 *
 * <pre>
 *   VUS (5)  DURATION (10s)  RUN (a tag in subjects and recipients)
 *   TOKENS   JSON [{"token": "...", "sender_no": 1}, ...]: callers, one per sender in turn; else TOKEN as sender 1
 * </pre>
 *
 * Named {@code mail-send} as its k6 script's summary was, and {@code mail-send-smoke} as the mail service's smoke
 * runs it (VUS=5, DURATION=10s).
 */
public final class MailSend implements Scenario {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final String name;

	private record Sender(String token, long senderNo) {
	}

	public MailSend(String name) {
		this.name = name;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Load load(Settings settings) {
		return Load.closed(settings.positiveInt("VUS", 5), settings.duration().orElse(Durations.parse("DURATION", "10s")),
				Duration.ofSeconds(15));
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("mail"), "mail/send")
			.failures()
			.latency("send", "mail_send_duration")
			.rule("mail_send_overloaded", "count==0")
			.rule("mail_send_server_errors", "count==0");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		List<Sender> senders = senders(context.settings());
		String run = context.settings().text("RUN", "jm" + Long.toString(System.currentTimeMillis(), 36));
		context.setup().requireService("/v2/mailboxes", Map.of("Authorization", "Bearer " + senders.get(0).token()));
		return List.of(httpSampler("send", context.baseUrl() + "/v2/mails/send")
			.header("Authorization", (s) -> "Bearer " + sender(senders, Numbers.vu(s.vars)).token())
			.post((s) -> body(run, Numbers.vu(s.vars) + 1, Numbers.iteration(s.vars),
					sender(senders, Numbers.vu(s.vars))), ContentType.APPLICATION_JSON)
			.responseTimeout(Duration.ofSeconds(60))
			.children(check("send is accepted", (r) -> r.status() == 202),
					Tally.count(context, "mail_send_accepted", (r) -> r.status() == 202),
					Tally.count(context, "mail_send_overloaded", (r) -> r.status() == 503),
					Tally.count(context, "mail_send_server_errors",
							(r) -> r.status() != 503 && (r.status() >= 500 || r.status() == 0))));
	}

	/** VU n (0-based, among all runners' VUs) is k6's VU n + 1, which sent as the caller at that index. */
	private static Sender sender(List<Sender> senders, int thread) {
		return senders.get((thread + 1) % senders.size());
	}

	private static String body(String run, int vu, long iteration, Sender sender) {
		String tag = run + "v" + vu + "i" + iteration;
		return "{\"cert_key\":\"" + tag + "\",\"sender_no\":" + sender.senderNo() + ",\"to\":[\"" + run + "-" + vu
				+ "@load.perflab.test\"],\"cc\":[],\"bcc\":[],\"subject\":\"" + run + " " + vu + "/" + iteration
				+ "\",\"content\":\"contentcontent121212\",\"important\":false,\"is_save\":true,"
				+ "\"is_separate_send\":false,\"is_encrypt\":false,\"is_receipt_confirm\":true}";
	}

	private static List<Sender> senders(Settings settings) {
		String tokens = settings.text("TOKENS", "");
		List<Sender> senders = new ArrayList<>();
		if (!tokens.isEmpty()) {
			try {
				for (JsonNode caller : JSON.readTree(tokens)) {
					senders.add(new Sender(caller.path("token").asText(), caller.path("sender_no").asLong(1)));
				}
			}
			catch (IOException ex) {
				throw new BadInput("TOKENS=" + tokens + ": not a JSON list of {\"token\", \"sender_no\"}");
			}
		}
		else if (!settings.tokens().isEmpty()) {
			senders.add(new Sender(settings.tokens().get(0), 1));
		}
		if (senders.isEmpty() || senders.get(0).token().isEmpty()) {
			throw new SetupFailed("TOKEN or TOKENS is not set: run through scripts/load/load.sh or scripts/bench/bench-send.sh");
		}
		return senders;
	}

}
