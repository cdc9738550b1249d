package dev.perflab.load;

import java.util.Arrays;
import java.util.List;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Runner;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.verdict.Verdict;

/**
 * The load runner's command line.
 *
 * <pre>
 *   java -jar load-tests.jar list                              the scenarios' names, one a line
 *   java -jar load-tests.jar run SCENARIO [KEY=VALUE ...]      one run; the same keys are read from the environment
 *   java -jar load-tests.jar verdict TESTID=... [KEY=VALUE ...]  a run's verdict across its runners, from Prometheus
 *   java -jar load-tests.jar start [--timeout D] ADDRESS...    starts paused runners together, through their CONTROL
 *   java -jar load-tests.jar stop ADDRESS...                   stops runners through their CONTROL
 *   java -jar load-tests.jar report DIR SOURCE...              one HTML report of a run from its runners' samples
 * </pre>
 *
 * Exit status as k6's: 0 thresholds held, 99 a threshold crossed, 2 bad input (nothing started), 107 a setup step
 * failed (nothing started, or a PAUSED run never started), 103 stopped before its schedule's end (POST /v1/stop,
 * SIGTERM; its summary written as usual). {@code start} and {@code stop}: 0 done, 1 not ({@link Starter});
 * {@code report} the same ({@link Report}).
 * {@code verdict} has its own ({@link Verdict}).
 */
public final class LoadRunner {

	static final int BAD_INPUT = 2;

	static final int SETUP_FAILED = 107;

	private LoadRunner() {
	}

	public static void main(String[] args) throws Exception {
		System.exit(run(args));
	}

	static int run(String[] args) throws Exception {
		List<String> words = Arrays.asList(args);
		try {
			if (words.size() == 1 && words.get(0).equals("list")) {
				Scenarios.names().forEach(System.out::println);
				return 0;
			}
			if (!words.isEmpty() && words.get(0).equals("verdict")) {
				return Verdict.run(words.subList(1, words.size()));
			}
			if (!words.isEmpty() && words.get(0).equals("start")) {
				return new Starter(System.out, System.err).start(words.subList(1, words.size()), System.getenv());
			}
			if (!words.isEmpty() && words.get(0).equals("stop")) {
				return new Starter(System.out, System.err).stop(words.subList(1, words.size()));
			}
			if (!words.isEmpty() && words.get(0).equals("report")) {
				return new Report(System.out, System.err).report(words.subList(1, words.size()));
			}
			if (words.size() < 2 || !words.get(0).equals("run")) {
				throw new BadInput("usage: load-tests list | load-tests run SCENARIO [KEY=VALUE ...]"
						+ " | load-tests verdict TESTID=... [KEY=VALUE ...] | load-tests start|stop ADDRESS ..."
						+ " | load-tests report DIR SOURCE ...");
			}
			Scenario scenario = Scenarios.named(words.get(1));
			Settings settings = Settings.of(System.getenv(), words.subList(2, words.size()));
			return Runner.run(scenario, settings);
		}
		catch (BadInput ex) {
			System.err.println("load-tests: " + ex.getMessage());
			return BAD_INPUT;
		}
		catch (SetupFailed ex) {
			System.err.println("load-tests: setup failed: " + ex.getMessage());
			return SETUP_FAILED;
		}
	}

}
