package dev.perflab.load;

import java.util.Arrays;
import java.util.List;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Runner;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.SetupFailed;
import dev.perflab.load.lib.Settings;

/**
 * The load runner's command line.
 *
 * <pre>
 *   java -jar load-tests.jar list                              the scenarios' names, one a line
 *   java -jar load-tests.jar run SCENARIO [KEY=VALUE ...]      one run; the same keys are read from the environment
 * </pre>
 *
 * Exit status as k6's: 0 thresholds held, 99 a threshold crossed, 2 bad input (nothing started), 107 a setup step
 * failed (nothing started).
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
			if (words.size() < 2 || !words.get(0).equals("run")) {
				throw new BadInput("usage: load-tests list | load-tests run SCENARIO [KEY=VALUE ...]");
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
