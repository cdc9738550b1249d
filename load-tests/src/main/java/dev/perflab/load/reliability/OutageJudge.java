package dev.perflab.load.reliability;

/**
 * How each answer is judged while a store was down: phases before (until OUTAGE_AT),
 * outage (OUTAGE_FOR), grace (GRACE, for reconnects) and after; every answer a success (2xx or 3xx) or a 503
 * problem+json with Retry-After within BOUND_MS; every request served before and after.
 */
final class OutageJudge {

	static final String BAD = "outage_bad_answers";

	static final String REFUSED = "outage_refused_503";

	static final String SERVED = "outage_served_before_and_after";

	static final String[] COUNTERS = { BAD, REFUSED };

	static final String[] RATES = { SERVED };

	private final long startMs;

	private final double outageAt;

	private final double outageFor;

	private final double grace;

	private final double boundMs;

	private final Verdicts verdicts;

	/** {@code startMs}: the run's time zero (epoch ms); {@code outageAt}, {@code outageFor}, {@code grace}: seconds. */
	OutageJudge(long startMs, double outageAt, double outageFor, double grace, double boundMs, Verdicts verdicts) {
		this.startMs = startMs;
		this.outageAt = outageAt;
		this.outageFor = outageFor;
		this.grace = grace;
		this.boundMs = boundMs;
		this.verdicts = verdicts;
	}

	/** Judges {@code res}, an answer to the request {@code what} ({@code mail list}). */
	void judge(String what, Answer res) {
		double t = (res.endMillis() - this.startMs) / 1000.0;
		String phase = t < this.outageAt ? "before"
				: t < this.outageAt + this.outageFor ? "outage"
						: t < this.outageAt + this.outageFor + this.grace ? "grace" : "after";
		int status = res.status();
		boolean ok = status >= 200 && status < 400;
		boolean refused = status == 503 && res.header("Content-Type").startsWith("application/problem+json")
				&& !res.header("Retry-After").isEmpty();
		boolean bounded = res.millis() <= this.boundMs;
		boolean passed = (ok || refused) && bounded;
		this.verdicts.check(what + ": a success or a 503 problem+json with Retry-After, within "
				+ CrashJudge.number(this.boundMs) + " ms", passed);
		if (!passed) {
			this.verdicts.count(BAD);
			this.verdicts.warn(phase + " " + what + ": " + status + " in " + res.millis() + " ms at "
					+ CrashJudge.seconds(t) + " s " + res.error() + " " + res.text(160));
		}
		if (refused) {
			this.verdicts.count(REFUSED);
		}
		if (phase.equals("before") || phase.equals("after")) {
			this.verdicts.rate(SERVED, ok);
			if (!ok) {
				this.verdicts.warn(phase + " " + what + ": not served, " + status + " in " + res.millis() + " ms at "
						+ CrashJudge.seconds(t) + " s");
			}
		}
	}

}
