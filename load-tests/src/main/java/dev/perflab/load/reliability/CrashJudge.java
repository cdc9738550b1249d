package dev.perflab.load.reliability;

import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;

/**
 * How each answer is judged while a service went away and came back, per VU and kind of
 * request: phases before (until DOWN_AT), down, and after (from the first whole 2xx of a kind this VU saw refused, at
 * DOWN_AT or later; else from BACK_BY); every answer a whole success or a 503 problem+json with Retry-After within
 * BOUND_MS, except, with HOW=kill, one cut when the process died (no answer, or a 2xx body cut short, ending between
 * 500 ms before and 3 s after the signal), counted apart; every request served before and after. Each answer is
 * printed ({@code ANSWER <X-Request-Id> <status> whole|cut}), and each create answered 2xx
 * ({@code CREATED <service> <id> <marker>}).
 */
final class CrashJudge {

	static final String BAD = "crash_bad_answers";

	static final String REFUSED = "crash_refused_503";

	static final String CREATED = "crash_created";

	static final String SERVED = "crash_served_before_and_after";

	static final String CUT = "crash_cut_at_kill";

	static final String AFTER = "crash_after_requests";

	static final String[] COUNTERS = { BAD, REFUSED, CREATED, CUT, AFTER };

	static final String[] RATES = { SERVED };

	private static final String SEEN_DOWN = "seen down";

	private static final String BACK = "back";

	/** A create's record: the id it answered and the marker it was sent with. */
	record Created(String id, String marker) {
	}

	/**
	 * A kind of request ({@code route create}): what a 2xx of it created (null for a read), and what makes its body
	 * whole (null: any), each from the answer and the VU that asked.
	 */
	record Kind(String what, BiFunction<Answer, Vu, Created> record, BiPredicate<Answer, Vu> whole) {
	}

	private final String service;

	private final boolean kill;

	private final long startMs;

	private final double downAt;

	private final double backBy;

	private final double boundMs;

	private final Verdicts verdicts;

	/**
	 * {@code startMs}: the run's time zero (epoch ms); {@code downAt}, {@code backBy}: seconds after it; {@code how}:
	 * kill or term.
	 */
	CrashJudge(String service, String how, long startMs, double downAt, double backBy, double boundMs, Verdicts verdicts) {
		this.service = service;
		this.kill = how.equals("kill");
		this.startMs = startMs;
		this.downAt = downAt;
		this.backBy = backBy;
		this.boundMs = boundMs;
		this.verdicts = verdicts;
	}

	/** Judges {@code res}, an answer to a request of {@code kind} by {@code vu}. */
	void judge(Kind kind, Answer res, Vu vu) {
		String what = kind.what();
		Map<String, String> seen = vu.seen;
		double t = (res.endMillis() - this.startMs) / 1000.0;
		String state = seen.get(what);
		String phase = t < this.downAt ? "before" : BACK.equals(state) || t >= this.backBy ? "after" : "down";
		int status = res.status();
		boolean ok = status >= 200 && status < 300;
		boolean complete = !ok || kind.whole() == null || kind.whole().test(res, vu);
		boolean no = status == 503 && res.header("Content-Type").startsWith("application/problem+json")
				&& !res.header("Retry-After").isEmpty();
		boolean bounded = res.millis() <= this.boundMs;
		double signal = this.startMs + this.downAt * 1000;
		// kill -9 ends a process mid-answer: a stream whose status line went out before is cut when it dies (no gateway
		// can finish it), and that ends within moments of the kill, which comes a few ms after the agreed time
		boolean cut = this.kill && (status == 0 || ok && !complete) && res.endMillis() >= signal - 500
				&& res.endMillis() <= signal + 3000;
		if (cut) {
			this.verdicts.count(CUT);
		}
		else {
			boolean passed = (ok || no) && complete && bounded;
			this.verdicts.check(what + ": a whole success or a 503 problem+json with Retry-After, within "
					+ number(this.boundMs) + " ms", passed);
			if (!passed) {
				this.verdicts.count(BAD);
				String cutShort = complete ? ""
						: " (body cut short: " + res.body().length + " bytes, " + or(res.header("Content-Length"), "no")
								+ " Content-Length, " + or(res.header("Content-Encoding"), "no") + " encoding, id "
								+ or(res.header("X-Request-Id"), "undefined") + ")";
				this.verdicts.warn(phase + " " + what + ": " + status + cutShort + " in " + res.millis() + " ms at "
						+ seconds(t) + " s " + res.error() + " " + res.text(160));
			}
		}
		if (no) {
			this.verdicts.count(REFUSED);
		}
		if (t >= this.downAt && state == null && (no || status == 0)) {
			seen.put(what, SEEN_DOWN);
		}
		else if (SEEN_DOWN.equals(state) && ok && complete) {
			seen.put(what, BACK);
		}
		this.verdicts.print("ANSWER " + or(res.header("X-Request-Id"), "-") + " " + status + " "
				+ (complete ? "whole" : "cut"));
		if (ok && kind.record() != null) {
			Created created = kind.record().apply(res, vu);
			this.verdicts.count(CREATED);
			this.verdicts.print("CREATED " + this.service + " " + created.id() + " " + created.marker());
		}
		if (!phase.equals("down")) {
			this.verdicts.rate(SERVED, ok);
			if (phase.equals("after")) {
				this.verdicts.count(AFTER);
			}
			if (!ok) {
				this.verdicts.warn(phase + " " + what + ": not served, " + status + " in " + res.millis() + " ms at "
						+ seconds(t) + " s");
			}
		}
	}

	/** A number as JavaScript prints it: {@code 10000}, {@code 2500.5}. */
	static String number(double value) {
		return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
	}

	/** Seconds with one decimal, as JavaScript's toFixed(1). */
	static String seconds(double t) {
		return String.format(Locale.ROOT, "%.1f", t);
	}

	private static String or(String value, String fallback) {
		return value.isEmpty() ? fallback : value;
	}

}
