package dev.perflab.load.lib;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario's thresholds from its service's SLOs, stated once per service: the failed and checks
 * limits, and each timed endpoint's percentiles on {@code http_req_duration{name:<endpoint>}} or on a trend of the
 * scenario's own that holds the durations of the requests of that name.
 */
public final class Thresholds {

	private static final Pattern P95 = Pattern.compile("^p\\(95\\)\\s*<=?\\s*([\\d.]+)$");

	private Slo slo;

	private final String sloScenario;

	private final Map<String, List<String>> rules = new LinkedHashMap<>();

	private final Map<String, String> trends = new LinkedHashMap<>();

	private Thresholds(Slo slo, String sloScenario) {
		this.slo = slo;
		this.sloScenario = sloScenario;
	}

	/** {@code sloScenario}: the key of the SLO's per-scenario statements that apply (mail/send), or null. */
	public static Thresholds of(Slo slo, String sloScenario) {
		return new Thresholds(slo, sloScenario);
	}

	/** http_req_failed and checks at the SLO's limits. */
	public Thresholds failures() {
		return failed().rule("checks", "rate>" + this.slo.checks());
	}

	/**
	 * http_req_failed and checks at the strictest limits of these services' SLOs: a scenario that calls them all (a
	 * mix).
	 */
	public Thresholds failures(Slo... slos) {
		double failed = Arrays.stream(slos).mapToDouble(Slo::failed).min().orElse(this.slo.failed());
		double checks = Arrays.stream(slos).mapToDouble(Slo::checks).max().orElse(this.slo.checks());
		return rule("http_req_failed", "rate<" + failed).rule("checks", "rate>" + checks);
	}

	/** The latencies that follow are those of another service's SLOs (a scenario that calls several). */
	public Thresholds service(Slo slo) {
		this.slo = slo;
		return this;
	}

	/** http_req_failed at the SLO's limit, without one on checks. */
	public Thresholds failed() {
		return rule("http_req_failed", "rate<" + this.slo.failed());
	}

	/** The endpoint's percentiles on http_req_duration{name:endpoint}. */
	public Thresholds latency(String endpoint) {
		return latencyOf(endpoint, endpoint);
	}

	/** The endpoint's percentiles on the requests named {@code request} ({@code http_req_duration{name:request}}). */
	public Thresholds latencyOf(String endpoint, String request) {
		return rule("http_req_duration{name:" + request + "}",
				this.slo.latency(endpoint, this.sloScenario).toArray(String[]::new));
	}

	/** The endpoint's percentiles on every request ({@code http_req_duration}): a scenario of one endpoint. */
	public Thresholds latencyOfAll(String endpoint) {
		return rule("http_req_duration", this.slo.latency(endpoint, this.sloScenario).toArray(String[]::new));
	}

	/** The endpoint's percentiles on {@code metric}, a trend of the durations of the requests named endpoint. */
	public Thresholds latency(String endpoint, String metric) {
		this.trends.put(metric, endpoint);
		return rule(metric, this.slo.latency(endpoint, this.sloScenario).toArray(String[]::new));
	}

	public Thresholds rule(String key, String... rules) {
		this.rules.computeIfAbsent(key, (k) -> new ArrayList<>()).addAll(List.of(rules));
		return this;
	}

	/** Trends of the scenario's own: metric name to the request name whose durations it holds. */
	public Map<String, String> trends() {
		return this.trends;
	}

	/**
	 * Every threshold; with {@code mainOnly} each narrowed to the main stage ({@code scenario:main} added to its
	 * tags), so a cold warm-up never decides a verdict.
	 */
	public List<Threshold> list(boolean mainOnly) {
		List<Threshold> list = new ArrayList<>();
		this.rules.forEach((key, rules) -> {
			String narrowed = !mainOnly ? key
					: key.endsWith("}") ? key.substring(0, key.length() - 1) + ",scenario:main}" : key + "{scenario:main}";
			rules.forEach((rule) -> list.add(Threshold.of(narrowed, rule)));
		});
		return list;
	}

	/** The largest p95 limit stated, in ms (the iteration's latency budget); null when none is. */
	public Double sloMs() {
		Double max = null;
		for (List<String> rules : this.rules.values()) {
			for (String rule : rules) {
				Matcher m = P95.matcher(rule.trim());
				if (m.matches()) {
					double limit = Double.parseDouble(m.group(1));
					max = max == null ? limit : Math.max(max, limit);
				}
			}
		}
		return max;
	}

}
