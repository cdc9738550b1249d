package dev.perflab.load.reliability;

import dev.perflab.load.lib.Metrics;
import dev.perflab.load.lib.Phase;
import dev.perflab.load.lib.Run;

/**
 * Where a reliability case's judgements go: its own counters and rates, its checks, the lines it prints for its
 * caller on stdout ({@code ANSWER ...}, {@code CREATED ...}) and its warnings on stderr (k6's console.log and
 * console.warn).
 */
interface Verdicts {

	void count(String metric);

	void rate(String metric, boolean value);

	void check(String name, boolean passed);

	void print(String line);

	void warn(String line);

	/** Into {@code run}'s metrics (the main stage: these cases have no warm-up), stdout and stderr. */
	static Verdicts of(Run run) {
		return new Verdicts() {

			@Override
			public void count(String metric) {
				run.metrics().count(metric, Phase.MAIN, "", 1);
			}

			@Override
			public void rate(String metric, boolean value) {
				run.metrics().rate(metric, Phase.MAIN, "", value);
			}

			@Override
			public void check(String name, boolean passed) {
				run.check(name, passed);
			}

			@Override
			public void print(String line) {
				System.out.println(line);
			}

			@Override
			public void warn(String line) {
				System.err.println(line);
			}

		};
	}

	/** Declares {@code counters} and {@code rates} in {@code run}, so each is reported (and judged) without samples. */
	static void declare(Run run, String[] counters, String[] rates) {
		for (String counter : counters) {
			run.metrics().declare(counter, Metrics.Kind.COUNTER);
		}
		for (String rate : rates) {
			run.metrics().declare(rate, Metrics.Kind.RATE);
		}
	}

}
