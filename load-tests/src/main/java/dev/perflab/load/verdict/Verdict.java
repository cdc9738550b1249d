package dev.perflab.load.verdict;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import dev.perflab.load.lib.BadInput;

/**
 * The verdict of one run across all its runners, read from Prometheus after the run (the runners'
 * own metrics). Each runner judges its thresholds on its own share of the
 * load; with several runners none sees the whole. Their remote-written series (labelled {@code testid}, one set per
 * {@code runner}) are cumulative from each runner's start: summed at the run's last sample they are the whole run, so
 * the failed share is exact (the request counters) and the p95 is the whole run's, exact to the native histograms'
 * resolution (buckets 2^(1/8) apart: within 9%), not the worst runner's.
 *
 * <p>
 * The generator is judged before the system: each runner pod's CPU from cAdvisor (the pod's own cgroup) against its
 * limit ({@code RUNNER_CPU_LIMIT} cores, or its CFS quota), peak over the run in {@code CPU_WINDOW} windows; the
 * share of its CFS periods the kernel throttled it in (the cgroup's own word that it wanted more than its limit,
 * which a rate of the usage can miss in a short run); and the iterations the runners dropped. A runner over
 * {@code MAX_GENERATOR_CPU} of its CPU or throttled in more than {@code MAX_THROTTLED_SHARE} of its periods, or drops
 * while the runners' CPU is unknown, make the run inconclusive: it says nothing about the system. Drops with a
 * healthy generator fail it (the system was late).
 *
 * <p>
 * It prints {@code run ...:} (what Prometheus holds), {@code generator: ...}, the checks each on a line with ✓ or ✗,
 * and one {@code verdict: pass|fail (...)|inconclusive (...)} line. Exit status: 0 pass, 99 fail, 75 inconclusive
 * (the generator, not the system), 110 a run Prometheus never saw (never a pass), 2 bad input (one line naming the
 * key and the value, nothing asked), 1 Prometheus could not be asked (unreachable, or an answer other than 200).
 */
public final class Verdict {

	public static final int PASS = 0;

	public static final int FAILED_ASKING = 1;

	public static final int BAD_INPUT = 2;

	public static final int INCONCLUSIVE = 75;

	public static final int FAIL = 99;

	public static final int UNKNOWN_RUN = 110;

	static final String REQUESTS = "perflab_load_http_reqs_total";

	static final String DURATIONS = "perflab_load_http_req_duration_seconds";

	static final String DROPPED = "perflab_load_dropped_iterations_total";

	private Verdict() {
	}

	/** {@code java -jar load-tests.jar verdict KEY=VALUE...}: prints in UTF-8 whatever the locale, as k6 did. */
	public static int run(List<String> arguments) throws InterruptedException {
		PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
		PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
		return run(System.getenv(), arguments, out, err);
	}

	public static int run(Map<String, String> environment, List<String> arguments, PrintStream out, PrintStream err)
			throws InterruptedException {
		VerdictSettings settings;
		try {
			settings = VerdictSettings.of(environment, arguments);
		}
		catch (BadInput ex) {
			err.println("load-tests: " + ex.getMessage());
			return BAD_INPUT;
		}
		try {
			return ask(settings, new Prometheus(settings.prometheusUrl()), out, err);
		}
		catch (Prometheus.Unanswered ex) {
			err.println("load-tests: verdict: " + ex.getMessage());
			return FAILED_ASKING;
		}
	}

	static int ask(VerdictSettings settings, Prometheus prometheus, PrintStream out, PrintStream err)
			throws Prometheus.Unanswered, InterruptedException {
		String run = "testid=\"" + settings.testid() + "\"";
		double[] span = prometheus.span(REQUESTS + "{" + run + "}[" + settings.window() + "]");
		if (span == null) {
			err.println("load-tests: verdict: " + unknownRun(settings));
			return UNKNOWN_RUN;
		}
		double at = span[1];
		String duration = "sum(" + DURATIONS + "{" + run + "})";
		Totals totals = new Totals(prometheus.scalar("sum(" + REQUESTS + "{" + run + "})", at),
				orZero(prometheus.scalar("sum(" + REQUESTS + "{" + run + ",expected_response=\"false\"})", at)),
				orZero(prometheus.scalar("sum(" + DROPPED + "{" + run + "})", at)),
				prometheus.scalar("histogram_quantile(0.95, " + duration + ")", at),
				prometheus.scalar("histogram_quantile(0.99, " + duration + ")", at),
				prometheus.scalar("histogram_count(" + duration + ")", at),
				prometheus.scalar("count(count by (runner) (" + REQUESTS + "{" + run + "}))", at));
		Generator generator = Generator.NOT_ASKED;
		if (!settings.runnerPods().isEmpty()) {
			long range = range(span[0], at, settings);
			generator = new Generator(prometheus.scalar(cpuPeakQuery(settings, range), at),
					orZero(prometheus.scalar(reportingQuery(settings, range), at)),
					prometheus.scalar(throttledQuery(settings, range), at));
		}
		Outcome outcome = judge(settings, totals, generator);
		outcome.lines().forEach(out::println);
		return outcome.exit();
	}

	/** What Prometheus holds of the run at its last sample, summed over runners (nulls: nothing there). */
	record Totals(Double requests, double failed, double dropped, Double p95, Double p99, Double counted,
			Double runners) {
	}

	/**
	 * The busiest runner's peak CPU over the run as a share of its limit, how many runner pods reported CPU at all,
	 * and the most throttled runner's share of throttled CFS periods (nulls: not asked, or nothing known).
	 */
	record Generator(Double cpu, double reporting, Double throttled) {

		static final Generator NOT_ASKED = new Generator(null, 0, null);

	}

	/** The printed lines and the exit status. */
	record Outcome(int exit, List<String> lines) {
	}

	/** The rules: the generator first (a starved one measured itself), then the checks of the system. */
	static Outcome judge(VerdictSettings settings, Totals t, Generator g) {
		List<String> lines = new ArrayList<>();
		lines.add("run " + settings.testid() + ": " + number(t.requests()) + " requests from " + number(t.runners())
				+ " runner(s), " + number(t.failed()) + " failed, p95 " + number(t.p95()) + " s and p99 "
				+ number(t.p99()) + " s of all " + number(t.counted())
				+ " request durations (native histograms summed over runners)");
		String cpuText = g.cpu() == null
				? (settings.runnerPods().isEmpty() ? "runners' CPU not asked (no RUNNER_PODS)"
						: "runners' CPU unknown (no cAdvisor series for pods " + settings.runnerPods() + " in "
								+ settings.namespace() + ", or no CPU limit)")
				: "busiest runner at " + percent(g.cpu()) + "% of its CPU (" + number(g.reporting())
						+ " runner pod(s) reporting)";
		String throttledText = g.throttled() == null ? ""
				: ", most throttled in " + percent(g.throttled()) + "% of its CPU periods";
		lines.add("generator: " + cpuText + throttledText + ", " + number(t.dropped()) + " iteration(s) dropped");
		if (g.cpu() != null && g.cpu() > settings.maxGeneratorCpu()) {
			return inconclusive(lines, "a runner used " + percent(g.cpu()) + "% of its CPU, over "
					+ hundredfold(settings.maxGeneratorCpu()) + "%");
		}
		if (g.throttled() != null && g.throttled() > settings.maxThrottledShare()) {
			return inconclusive(lines, "a runner was throttled in " + percent(g.throttled())
					+ "% of its CPU periods, over " + hundredfold(settings.maxThrottledShare()) + "%");
		}
		if (t.dropped() > 0 && g.cpu() == null) {
			return inconclusive(lines, number(t.dropped()) + " iteration(s) dropped and the runners' CPU is unknown");
		}
		double failedShare = t.requests() == null ? 1 : t.failed() / t.requests();
		boolean all = check(lines, "the run sent requests that Prometheus received",
				t.requests() != null && t.requests() > 0);
		all &= check(lines, "every request has its duration in the histograms", Objects.equals(t.counted(), t.requests()));
		all &= check(lines, "at most " + hundredfold(settings.maxFailedShare()) + "% of all runners' requests failed",
				failedShare <= settings.maxFailedShare());
		all &= check(lines, "the run's p95 is under " + number(settings.maxP95Seconds()) + " s",
				t.p95() != null && t.p95() < settings.maxP95Seconds());
		all &= check(lines, "no iteration dropped while the generator kept up (the system was late)", t.dropped() == 0);
		if (all) {
			lines.add("verdict: pass");
			return new Outcome(PASS, lines);
		}
		lines.add("verdict: fail ("
				+ (t.dropped() > 0 ? number(t.dropped()) + " iteration(s) dropped with a healthy generator; " : "")
				+ "see the failed checks)");
		return new Outcome(FAIL, lines);
	}

	/** Why there is no verdict for a run Prometheus holds nothing of: an error of its own, never a pass. */
	static String unknownRun(VerdictSettings settings) {
		return "Prometheus at " + settings.prometheusUrl() + " holds no run " + settings.testid() + " in the last "
				+ settings.window() + ": no verdict";
	}

	/** The runner pods' own cgroups (container=""): the whole pod, whatever its containers, and its pod-level quota. */
	static String pods(VerdictSettings settings) {
		return "namespace=\"" + quoted(settings.namespace()) + "\",pod=~\"" + quoted(settings.runnerPods())
				+ "\",container=\"\"";
	}

	/** The busiest runner's peak CPU over {@code range} seconds in CPU_WINDOW windows, as a share of its limit. */
	static String cpuPeakQuery(VerdictSettings settings, long range) {
		String pods = pods(settings);
		String by = "namespace, pod";
		String usage = "max by (" + by + ") (rate(container_cpu_usage_seconds_total{" + pods + "}["
				+ settings.cpuWindow() + "]))";
		String limit = settings.runnerCpuLimit() > 0 ? number(settings.runnerCpuLimit())
				: "on (" + by + ") max by (" + by + ") (container_spec_cpu_quota{" + pods
						+ "} / container_spec_cpu_period{" + pods + "})";
		return "max(max_over_time((" + usage + " / " + limit + ")[" + range + "s:5s]))";
	}

	/** How many runner pods reported CPU during the run. */
	static String reportingQuery(VerdictSettings settings, long range) {
		return "count(max by (pod) (max_over_time(container_cpu_usage_seconds_total{" + pods(settings) + "}[" + range
				+ "s])))";
	}

	/** The most throttled runner's share of throttled CFS periods over the run. */
	static String throttledQuery(VerdictSettings settings, long range) {
		String pods = pods(settings);
		String throttled = "max by (namespace, pod) (increase(container_cpu_cfs_throttled_periods_total{" + pods + "}["
				+ range + "s]))";
		String periods = "max by (namespace, pod) (increase(container_cpu_cfs_periods_total{" + pods + "}[" + range
				+ "s]))";
		return "max(" + throttled + " / (" + periods + " > 0))";
	}

	/** The run's length from its first to its last sample, whole seconds up, and one CPU window more. */
	static long range(double first, double last, VerdictSettings settings) {
		return (long) Math.ceil(last - first) + settings.cpuWindowSeconds();
	}

	/** A value inside a PromQL double-quoted string. */
	static String quoted(String value) {
		return value.replace("\\", "\\\\").replace("\"", "\\\"");
	}

	private static boolean check(List<String> lines, String name, boolean ok) {
		lines.add((ok ? "✓ " : "✗ ") + name);
		return ok;
	}

	private static Outcome inconclusive(List<String> lines, String why) {
		lines.add("verdict: inconclusive (" + why + ")");
		return new Outcome(INCONCLUSIVE, lines);
	}

	private static double orZero(Double value) {
		return value == null ? 0 : value;
	}

	/** A value as short as it reads: 1200, 0.25, 0.0031; unknown for nothing. */
	static String number(Double value) {
		if (value == null) {
			return "unknown";
		}
		if (!Double.isFinite(value)) {
			return value.isNaN() ? "NaN" : (value > 0 ? "+Inf" : "-Inf");
		}
		return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
	}

	private static String percent(double share) {
		return String.format(Locale.ROOT, "%.0f", share * 100);
	}

	private static String hundredfold(double share) {
		return BigDecimal.valueOf(share).movePointRight(2).stripTrailingZeros().toPlainString();
	}

}
