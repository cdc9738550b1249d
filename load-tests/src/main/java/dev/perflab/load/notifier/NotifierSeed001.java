package dev.perflab.load.notifier;

import java.time.Duration;
import java.util.List;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Durations;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Segment;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.Slo;
import dev.perflab.load.lib.Tally;
import dev.perflab.load.lib.Thresholds;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;

/**
 * Seed 001's profile through the gateway: guestbook signings at 50/s for a minute, 100/s for a minute, then a drain
 * (the seed's third minute at 0/s). Each signing commits its entry and a PENDING SMS, which leaves after commit. The
 * seed's start (in-transaction-sync) ran 10 TPS and 23% success; the SLO here is every signing 201 with p95 within
 * 100 ms, and after the drain no SMS delivered twice (SMS_SINK_URL: the endpoint's counts).
 *
 * <pre>
 *   RATE (50)  PEAK (100)  STAGE (1m: the seed's; whole seconds or minutes)
 *   SMS_SINK_URL (none: the drain is not checked)
 * </pre>
 */
public final class NotifierSeed001 implements Scenario {

	static final String SIGNED = "signing is 201";

	static final String ONCE = "no SMS delivered twice";

	private volatile SmsSink.Count before;

	@Override
	public String name() {
		return "notifier-seed001";
	}

	@Override
	public Load load(Settings settings) {
		int peak = settings.positiveInt("PEAK", 100);
		return Load.arrivals(segments(settings.rate().orElse(50.0), peak, stage(settings)), Math.max(200, peak * 2));
	}

	/** The rate for a stage, a step to the peak in 1 s, the peak for the stage's rest. */
	static List<Segment> segments(double rate, double peak, Duration stage) {
		Duration second = Duration.ofSeconds(1);
		return List.of(new Segment(rate, rate, stage), new Segment(rate, peak, second),
				new Segment(peak, peak, stage.minus(second)));
	}

	private static Duration stage(Settings settings) {
		String stage = settings.text("STAGE", "1m");
		Duration length = Durations.parse("STAGE", stage);
		if (!stage.matches("\\d+[sm]?") || length.compareTo(Duration.ofSeconds(2)) < 0) {
			throw new BadInput("STAGE=" + stage + ": whole seconds or minutes, 2s at least");
		}
		return length;
	}

	@Override
	public Thresholds thresholds(Settings settings) {
		return Thresholds.of(Slo.of("notifier"), null)
			.latency("sign")
			.rule("checks{check:" + SIGNED + "}", "rate==1")
			.rule("http_req_failed{name:sign}", "rate==0")
			.rule("checks{check:" + ONCE + "}", "rate==1");
	}

	@Override
	public List<ThreadGroupChild> iteration(Context context) {
		context.setup().requireService("/v1/notifications/1", Callers.setupIdentityOrBearer(context.settings()));
		this.before = sink(context).count();
		List<Long> events = Guestbook.createEventPerCaller(context, "jmeter " + context.settings().summaryName(name()));
		return List.of(Guestbook.sign(context, events).children(check(SIGNED, (r) -> r.status() == 201),
				Tally.count(context, "notifier_signed", (r) -> r.status() == 201),
				// answers other than 201, by kind: 503 (no pool connection, or the gateway no service), 504 (the
				// gateway gave up waiting), anything else
				Tally.count(context, "notifier_sign_503", (r) -> r.status() == 503),
				Tally.count(context, "notifier_sign_504", (r) -> r.status() == 504),
				Tally.count(context, "notifier_sign_other",
						(r) -> r.status() != 201 && r.status() != 503 && r.status() != 504)));
	}

	/** The drain: waits for the SMS backlog, then checks that no SMS was delivered twice during the run. */
	@Override
	public void teardown(Context context) {
		SmsSink.Count after;
		try {
			after = sink(context).drain(5, 150);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		if (after == null || this.before == null) {
			return;
		}
		System.out.println("sms-sink: " + (after.deliveries() - this.before.deliveries())
				+ " SMS delivered during the run and drain, " + after.duplicates()
				+ " message ids delivered more than once, " + (after.refused() - this.before.refused()) + " refused");
		context.run().check(ONCE, after.duplicates() == this.before.duplicates());
	}

	private static SmsSink sink(Context context) {
		return new SmsSink(context.settings().text("SMS_SINK_URL", ""), Duration.ofSeconds(1));
	}

}
