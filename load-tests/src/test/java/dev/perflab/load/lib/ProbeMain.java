package dev.perflab.load.lib;

import java.util.List;

/**
 * A runner of {@link ProbeScenario} in a JVM of its own (as {@code java -jar load-tests.jar run} is), for what only a
 * process sees: SIGTERM.
 */
final class ProbeMain {

	private ProbeMain() {
	}

	public static void main(String[] args) throws Exception {
		System.exit(Runner.run(new ProbeScenario(10, 20), Settings.of(System.getenv(), List.of(args))));
	}

}
