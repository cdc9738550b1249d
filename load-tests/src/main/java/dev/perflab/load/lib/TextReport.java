package dev.perflab.load.lib;

import java.util.Map;
import java.util.TreeMap;

/**
 * The summary as a short human report: one line per metric with its values, and a mark where thresholds were judged
 * (k6's end-of-test report's layout, which readers of load reports know).
 */
public final class TextReport {

	private TextReport() {
	}

	@SuppressWarnings("unchecked")
	public static String of(Map<String, Object> data, String title) {
		StringBuilder out = new StringBuilder("\n").append(title).append("\n\n");
		Map<String, Object> metrics = new TreeMap<>((Map<String, Object>) data.get("metrics"));
		metrics.forEach((name, value) -> {
			Map<String, Object> metric = (Map<String, Object>) value;
			out.append("  ").append(String.format("%-34s", name));
			((Map<String, Double>) metric.get("values")).forEach((k, v) -> out.append(' ').append(k).append('=').append(fmt(v)));
			Map<String, Map<String, Boolean>> thresholds = (Map<String, Map<String, Boolean>>) metric.get("thresholds");
			if (thresholds != null) {
				boolean ok = thresholds.values().stream().allMatch((t) -> t.get("ok"));
				out.append(ok ? " ✓" : " ✗ THRESHOLD FAILED");
			}
			out.append('\n');
		});
		return out.toString();
	}

	private static String fmt(double v) {
		return Math.abs(v) >= 100 ? String.format("%.0f", v) : String.format("%.2f", v);
	}

}
