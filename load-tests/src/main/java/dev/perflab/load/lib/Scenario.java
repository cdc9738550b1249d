package dev.perflab.load.lib;

import java.util.List;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

/**
 * A load scenario: its name (as the k6 script's summary was named), how it offers load, its thresholds from its
 * service's SLOs, and its iteration, built after the setup steps it needs ran.
 */
public interface Scenario {

	String name();

	Load load(Settings settings);

	Thresholds thresholds(Settings settings);

	/**
	 * Runs the setup steps (requests before any load; a failure is a {@link SetupFailed}) and answers the requests of
	 * one iteration.
	 */
	List<ThreadGroupChild> iteration(Context context);

	/** After the load, before the summary (k6's teardown()): a drain to wait for, a last check to count. */
	default void teardown(Context context) {
	}

	/** The summary's name unless SUMMARY_NAME says otherwise: the scenario's own name unless a setting picks another. */
	default String summaryName(Settings settings) {
		return name();
	}

	/** What a scenario builds its iteration with: the settings, the setup's client and the run it belongs to. */
	record Context(Settings settings, Setup setup, Run run, String runId) {

		public String baseUrl() {
			return this.settings.baseUrl();
		}

	}

}
