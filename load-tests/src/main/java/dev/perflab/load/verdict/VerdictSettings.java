package dev.perflab.load.verdict;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.perflab.load.lib.BadInput;

/**
 * The verdict's settings, from the environment and then from {@code KEY=VALUE} arguments (an argument wins), all
 * checked before Prometheus is asked anything: a bad value is a {@link BadInput} naming the key and the value. An
 * argument with any other key is refused too, so that a misspelt limit never leaves its default to judge the run.
 *
 * <pre>
 *   PROMETHEUS_URL       where the run's metrics are (http://127.0.0.1:9090)
 *   TESTID               the run's id, its metrics' testid label: lowercase letters, digits, dashes (required)
 *   WINDOW               how far back the run is looked for (6h)
 *   MAX_FAILED_SHARE     the share of all requests that may fail (0.01)
 *   MAX_P95_SECONDS      the p95 of all requests stays under it (0.5)
 *   NAMESPACE            the runner pods' namespace
 *   RUNNER_PODS          a regular expression of the runner pods' names; none: their CPU is not asked
 *   RUNNER_CPU_LIMIT     a runner pod's CPU limit in cores; 0: the pod's CFS quota (0)
 *   CPU_WINDOW           the rate window of the runners' CPU, 30s or 1m alike (1m: two kubelet scrapes)
 *   MAX_GENERATOR_CPU    the share of its CPU limit a runner may use before the run is inconclusive (0.8)
 *   MAX_THROTTLED_SHARE  the share of its CFS periods a runner may be throttled in (0.5)
 * </pre>
 */
public record VerdictSettings(String prometheusUrl, String testid, String window, double maxFailedShare,
		double maxP95Seconds, String namespace, String runnerPods, double runnerCpuLimit, String cpuWindow,
		double maxGeneratorCpu, double maxThrottledShare) {

	static final Set<String> KEYS = Set.of("PROMETHEUS_URL", "TESTID", "WINDOW", "MAX_FAILED_SHARE",
			"MAX_P95_SECONDS", "NAMESPACE", "RUNNER_PODS", "RUNNER_CPU_LIMIT", "CPU_WINDOW", "MAX_GENERATOR_CPU",
			"MAX_THROTTLED_SHARE");

	private static final Pattern TESTID = Pattern.compile("[a-z0-9-]+");

	/** A PromQL duration: one or more number-unit pairs ({@code 6h}, {@code 1h30m}). */
	private static final Pattern PROMQL_DURATION = Pattern.compile("([0-9]+(ms|s|m|h|d|w|y))+");

	private static final Pattern CPU_WINDOW = Pattern.compile("([0-9]+)(s|m)");

	private static final Pattern NUMBER = Pattern.compile("([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][-+]?[0-9]+)?");

	public static VerdictSettings of(Map<String, String> environment, List<String> arguments) {
		Map<String, String> values = new HashMap<>();
		KEYS.forEach((key) -> {
			String value = environment.get(key);
			if (value != null) {
				values.put(key, value);
			}
		});
		for (String argument : arguments) {
			int eq = argument.indexOf('=');
			if (eq <= 0) {
				throw new BadInput(argument + ": not KEY=VALUE");
			}
			String key = argument.substring(0, eq);
			if (!KEYS.contains(key)) {
				throw new BadInput(argument + ": not a verdict setting (one of " + String.join(", ", new TreeSet<>(KEYS)) + ")");
			}
			values.put(key, argument.substring(eq + 1));
		}
		return new VerdictSettings(url(text(values, "PROMETHEUS_URL", "http://127.0.0.1:9090")),
				testid(text(values, "TESTID", "")), window(text(values, "WINDOW", "6h")),
				number(values, "MAX_FAILED_SHARE", "0.01"), number(values, "MAX_P95_SECONDS", "0.5"),
				text(values, "NAMESPACE", ""), text(values, "RUNNER_PODS", ""), number(values, "RUNNER_CPU_LIMIT", "0"),
				cpuWindow(text(values, "CPU_WINDOW", "1m")), number(values, "MAX_GENERATOR_CPU", "0.8"),
				number(values, "MAX_THROTTLED_SHARE", "0.5"));
	}

	/** CPU_WINDOW in seconds. */
	public long cpuWindowSeconds() {
		Matcher m = CPU_WINDOW.matcher(this.cpuWindow);
		if (!m.matches()) {
			throw new IllegalStateException("CPU_WINDOW " + this.cpuWindow);
		}
		return Long.parseLong(m.group(1)) * (m.group(2).equals("m") ? 60 : 1);
	}

	private static String text(Map<String, String> values, String key, String fallback) {
		String value = values.get(key);
		return value == null || value.isBlank() ? fallback : value.trim();
	}

	private static String url(String value) {
		try {
			URI uri = new URI(value);
			if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
					&& uri.getQuery() == null && uri.getFragment() == null) {
				return value.replaceAll("/+$", "");
			}
		}
		catch (URISyntaxException ex) {
			// refused below
		}
		throw new BadInput("PROMETHEUS_URL=" + value + ": not an http(s) URL like http://127.0.0.1:9090");
	}

	private static String testid(String value) {
		if (!TESTID.matcher(value).matches()) {
			throw new BadInput("TESTID=" + value + ": the run's id is required, lowercase letters, digits and dashes only");
		}
		return value;
	}

	private static String window(String value) {
		if (!PROMQL_DURATION.matcher(value).matches()) {
			throw new BadInput("WINDOW=" + value + ": not a Prometheus duration (like 6h or 1d)");
		}
		return value;
	}

	private static String cpuWindow(String value) {
		Matcher m = CPU_WINDOW.matcher(value);
		if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
			throw new BadInput("CPU_WINDOW=" + value + ": must be like 30s or 1m");
		}
		return value;
	}

	private static double number(Map<String, String> values, String key, String fallback) {
		String value = text(values, key, fallback);
		try {
			if (NUMBER.matcher(value).matches()) {
				double number = new BigDecimal(value).doubleValue();
				if (Double.isFinite(number)) {
					return number;
				}
			}
		}
		catch (NumberFormatException ex) {
			// refused below (an exponent past int)
		}
		throw new BadInput(key + "=" + value + ": not a number (0 or more)");
	}

}
