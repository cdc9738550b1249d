package dev.perflab.load.lib;

/**
 * A scenario's setup step failed (the system is down, unseeded or answered wrongly): no load is sent (exit 107, k6's
 * code for a script error).
 */
public class SetupFailed extends RuntimeException {

	public SetupFailed(String message) {
		super(message);
	}

}
