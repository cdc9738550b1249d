package dev.perflab.load.lib;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's end-of-test summary in the shape of k6's handleSummary data, which the scripts read with jq and Python
 * ({@code .metrics.<name>.values.count}, {@code .metrics.<name>.thresholds}, {@code .perflab.vuBudget}): every metric
 * whole, narrowed to each phase ({@code {scenario:main}}), for requests to each name ({@code {name:create}}) and for
 * checks to each check ({@code {check:create is 201}});
 * each threshold on its narrowed metric with {@code ok}. Durations in ms.
 */
public final class Summary {

	private static final List<String> BY_NAME = List.of("http_reqs", "http_req_failed", "http_req_duration");

	private final Map<String, Object> metrics = new LinkedHashMap<>();

	private final List<String> failed = new ArrayList<>();

	private final Map<String, Object> perflab = new LinkedHashMap<>();

	private final double seconds;

	private Summary(double seconds) {
		this.seconds = seconds;
	}

	/**
	 * The summary of {@code run}, which lasted {@code seconds}; {@code phases}: whether it had a warm-up to report
	 * apart.
	 */
	public static Summary of(Run run, List<Threshold> thresholds, double seconds, boolean phases) {
		Summary summary = new Summary(seconds);
		Metrics metrics = run.metrics();
		for (String metric : metrics.metrics()) {
			summary.entry(metrics, metric, metric, Metrics.Filter.ALL);
			if (phases) {
				for (Phase phase : Phase.values()) {
					summary.entry(metrics, metric, metric + "{scenario:" + phase.tag() + "}", new Metrics.Filter(phase, null));
				}
			}
			String tag = switch (metric) {
				case "dropped_iterations" -> "reason";
				case "checks" -> "check";
				default -> BY_NAME.contains(metric) ? "name" : null;
			};
			if (tag != null) {
				for (String name : metrics.names(metric)) {
					summary.entry(metrics, metric, metric + "{" + tag + ":" + name + "}", new Metrics.Filter(null, name));
				}
			}
		}
		for (Threshold threshold : thresholds) {
			summary.judge(metrics, threshold);
		}
		summary.gauge("vus", run.peakInFlight());
		summary.gauge("vus_max", run.cap());
		return summary;
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> entry(Metrics metrics, String metric, String key, Metrics.Filter filter) {
		Metrics.Kind kind = metrics.kind(metric);
		if (kind == null) {
			throw new IllegalArgumentException("threshold on " + key + ": no metric " + metric + " in this scenario");
		}
		return (Map<String, Object>) this.metrics.computeIfAbsent(key, (k) -> {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("type", kind.json());
			entry.put("contains", metric.endsWith("_duration") || metric.endsWith("_lateness") ? "time" : "default");
			entry.put("values", values(metrics, metric, kind, filter));
			return entry;
		});
	}

	private Map<String, Double> values(Metrics metrics, String metric, Metrics.Kind kind, Metrics.Filter filter) {
		Map<String, Double> values = new LinkedHashMap<>();
		long count = metrics.count(metric, filter);
		switch (kind) {
			case COUNTER -> {
				values.put("count", (double) count);
				values.put("rate", this.seconds > 0 ? count / this.seconds : 0);
			}
			case RATE -> {
				long trues = metrics.trues(metric, filter);
				values.put("rate", count == 0 ? 0 : (double) trues / count);
				values.put("passes", (double) trues);
				values.put("fails", (double) (count - trues));
			}
			case TREND -> values.putAll(metrics.trend(metric, filter));
		}
		return values;
	}

	@SuppressWarnings("unchecked")
	private void judge(Metrics metrics, Threshold threshold) {
		Map<String, Object> entry = entry(metrics, threshold.metric(), threshold.key(), threshold.filter());
		Map<String, Double> values = (Map<String, Double>) entry.get("values");
		Metrics.Kind kind = metrics.kind(threshold.metric());
		boolean sampled = kind == Metrics.Kind.COUNTER
				|| (kind == Metrics.Kind.RATE ? values.get("passes") + values.get("fails") : values.get("count")) > 0;
		boolean ok = threshold.holds(values, sampled);
		((Map<String, Object>) entry.computeIfAbsent("thresholds", (k) -> new LinkedHashMap<>()))
			.put(threshold.rule(), Map.of("ok", ok));
		if (!ok) {
			this.failed.add(threshold.key() + " " + threshold.rule());
		}
	}

	private void gauge(String metric, double value) {
		Map<String, Object> entry = new LinkedHashMap<>();
		entry.put("type", "gauge");
		entry.put("contains", "default");
		entry.put("values", Map.of("value", value, "min", value, "max", value));
		this.metrics.put(metric, entry);
	}

	/** Adds a key of perflab's own next to the metrics (vuBudget, where the run ran). */
	public Summary perflab(String key, Object value) {
		this.perflab.put(key, value);
		return this;
	}

	/** The thresholds crossed, as {@code key rule}; none when the run passed. */
	public List<String> failed() {
		return this.failed;
	}

	/** The summary as JSON-ready maps. */
	public Map<String, Object> data() {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("state", Map.of("testRunDurationMs", Math.round(this.seconds * 1000)));
		data.put("metrics", this.metrics);
		data.put("perflab", this.perflab);
		return data;
	}

}
