package dev.perflab.load.lib;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trend's statistics as k6 reports them: avg, min, med, max, p(90), p(95), p(99) over every value, a percentile
 * interpolated linearly between the two values around its rank, as k6's trend sink does.
 */
final class TrendStats {

	private TrendStats() {
	}

	static Map<String, Double> of(List<Values> parts) {
		int n = parts.stream().mapToInt(Values::size).sum();
		double[] all = new double[n];
		int at = 0;
		for (Values part : parts) {
			int size = part.size();
			if (at + size > all.length) {
				all = Arrays.copyOf(all, at + size);
			}
			part.copyInto(all, at);
			at += size;
		}
		double[] sorted = Arrays.copyOf(all, at);
		Arrays.sort(sorted);
		Map<String, Double> stats = new LinkedHashMap<>();
		stats.put("avg", sorted.length == 0 ? 0 : Arrays.stream(sorted).sum() / sorted.length);
		stats.put("min", sorted.length == 0 ? 0 : sorted[0]);
		stats.put("med", percentile(sorted, 0.5));
		stats.put("max", sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
		stats.put("p(90)", percentile(sorted, 0.9));
		stats.put("p(95)", percentile(sorted, 0.95));
		stats.put("p(99)", percentile(sorted, 0.99));
		stats.put("count", (double) sorted.length);
		return stats;
	}

	static double percentile(double[] sorted, double p) {
		if (sorted.length == 0) {
			return 0;
		}
		double rank = p * (sorted.length - 1);
		int below = (int) Math.floor(rank);
		int above = (int) Math.ceil(rank);
		return sorted[below] + (sorted[above] - sorted[below]) * (rank - below);
	}

}
