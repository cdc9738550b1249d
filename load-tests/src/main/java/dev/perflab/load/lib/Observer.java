package dev.perflab.load.lib;

/**
 * Sees every counted request and iteration as the run goes (the Prometheus exporter); the summary reads
 * {@link Metrics} at the end.
 */
public interface Observer {

	Observer NONE = new Observer() {
	};

	default void request(Phase phase, String name, String status, boolean expected, double seconds) {
	}

	default void iteration(Phase phase) {
	}

	default void dropped(Phase phase, String reason) {
	}

	default void check(Phase phase, boolean passed) {
	}

}
