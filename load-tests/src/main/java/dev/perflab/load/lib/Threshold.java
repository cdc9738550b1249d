package dev.perflab.load.lib;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One threshold as k6 states it: a metric, narrowed by tags ({@code http_req_duration{name:create,scenario:main}},
 * {@code checks{check:a sign-up is 201}}: a check is recorded under its name as a request is), and a rule on one of
 * its values ({@code p(95)<300}, {@code rate<0.01}, {@code count==0}).
 */
public record Threshold(String key, String metric, Metrics.Filter filter, String rule) {

	private static final Pattern KEY = Pattern.compile("^([^{]+)(?:\\{(.*)})?$");

	private static final Pattern RULE = Pattern
		.compile("^\\s*([a-z]+(?:\\([\\d.]+\\))?)\\s*(<=|>=|==|!=|<|>)\\s*([\\d.]+)\\s*$");

	public static Threshold of(String key, String rule) {
		Matcher m = KEY.matcher(key);
		if (!m.matches() || !RULE.matcher(rule).matches()) {
			throw new IllegalArgumentException("not a threshold: " + key + " " + rule);
		}
		Phase phase = null;
		String name = null;
		if (m.group(2) != null) {
			for (String tag : m.group(2).split(",")) {
				String[] kv = tag.split(":", 2);
				switch (kv[0]) {
					case "name", "check" -> name = kv[1];
					case "scenario" -> phase = "main".equals(kv[1]) ? Phase.MAIN : Phase.WARMUP;
					default -> throw new IllegalArgumentException("tag " + kv[0] + " in " + key + ": name, check or scenario");
				}
			}
		}
		return new Threshold(key, m.group(1), new Metrics.Filter(phase, name), rule);
	}

	/** Whether the rule holds on the metric's values; a metric without samples holds (k6 judges none). */
	public boolean holds(Map<String, Double> values, boolean sampled) {
		if (!sampled) {
			return true;
		}
		Matcher m = RULE.matcher(this.rule);
		m.matches();
		Double actual = values.get(m.group(1));
		if (actual == null) {
			throw new IllegalArgumentException(this.key + ": no " + m.group(1) + " in " + values.keySet());
		}
		double limit = Double.parseDouble(m.group(3));
		return switch (m.group(2)) {
			case "<" -> actual < limit;
			case "<=" -> actual <= limit;
			case ">" -> actual > limit;
			case ">=" -> actual >= limit;
			case "==" -> actual == limit;
			default -> actual != limit;
		};
	}

}
