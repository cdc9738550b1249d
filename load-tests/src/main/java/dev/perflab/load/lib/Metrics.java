package dev.perflab.load.lib;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A run's metrics as k6 keeps them: counters, rates (a share of true values) and trends, each by phase and request
 * name, so a summary can read any of them whole or narrowed to {@code {name:create}} and {@code {scenario:main}}.
 */
public final class Metrics {

	/** What a metric is, as k6's summary names it. */
	public enum Kind {

		COUNTER, RATE, TREND;

		String json() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

	/** One part of a metric: a phase and a request name ("" for a metric without one). */
	record Part(String metric, Phase phase, String name) {
	}

	/** What a summary entry narrows a metric to; null matches everything. */
	public record Filter(Phase phase, String name) {

		public static final Filter ALL = new Filter(null, null);

		boolean matches(Part part) {
			return (this.phase == null || this.phase == part.phase())
					&& (this.name == null || this.name.equals(part.name()));
		}

	}

	private final Map<String, Kind> kinds = new ConcurrentHashMap<>();

	private final Map<Part, LongAdder> counts = new ConcurrentHashMap<>();

	private final Map<Part, LongAdder> trues = new ConcurrentHashMap<>();

	private final Map<Part, Values> trends = new ConcurrentHashMap<>();

	public void count(String metric, Phase phase, String name, long n) {
		declare(metric, Kind.COUNTER);
		this.counts.computeIfAbsent(new Part(metric, phase, name), (p) -> new LongAdder()).add(n);
	}

	public void rate(String metric, Phase phase, String name, boolean value) {
		declare(metric, Kind.RATE);
		Part part = new Part(metric, phase, name);
		this.counts.computeIfAbsent(part, (p) -> new LongAdder()).increment();
		LongAdder t = this.trues.computeIfAbsent(part, (p) -> new LongAdder());
		if (value) {
			t.increment();
		}
	}

	public void trend(String metric, Phase phase, String name, double value) {
		declare(metric, Kind.TREND);
		this.trends.computeIfAbsent(new Part(metric, phase, name), (p) -> new Values()).add(value);
	}

	/** Makes a metric known (reported with zero values) before its first sample. */
	public void declare(String metric, Kind kind) {
		Kind known = this.kinds.putIfAbsent(metric, kind);
		if (known != null && known != kind) {
			throw new IllegalStateException(metric + " is a " + known + ", not a " + kind);
		}
	}

	public Kind kind(String metric) {
		return this.kinds.get(metric);
	}

	public Set<String> metrics() {
		return new TreeSet<>(this.kinds.keySet());
	}

	/** The request names a metric was recorded with. */
	public Set<String> names(String metric) {
		Set<String> names = new TreeSet<>();
		this.counts.keySet().stream().filter((p) -> p.metric().equals(metric)).forEach((p) -> names.add(p.name()));
		this.trends.keySet().stream().filter((p) -> p.metric().equals(metric)).forEach((p) -> names.add(p.name()));
		names.remove("");
		return names;
	}

	public long count(String metric, Filter filter) {
		return sum(this.counts, metric, filter);
	}

	public long trues(String metric, Filter filter) {
		return sum(this.trues, metric, filter);
	}

	public Map<String, Double> trend(String metric, Filter filter) {
		List<Values> parts = this.trends.entrySet()
			.stream()
			.filter((e) -> e.getKey().metric().equals(metric) && filter.matches(e.getKey()))
			.map(Map.Entry::getValue)
			.toList();
		return TrendStats.of(parts);
	}

	private static long sum(Map<Part, LongAdder> map, String metric, Filter filter) {
		return map.entrySet()
			.stream()
			.filter((e) -> Objects.equals(e.getKey().metric(), metric) && filter.matches(e.getKey()))
			.mapToLong((e) -> e.getValue().sum())
			.sum();
	}

}
