package dev.perflab.load.lib;

import org.apache.jmeter.assertions.AssertionResult;

/**
 * A check's outcome on a sample: counted in {@code checks}; a failed one fails its request too.
 */
final class CheckResult extends AssertionResult {

	CheckResult(String name, boolean passed) {
		super(name);
		setFailure(!passed);
		if (!passed) {
			setFailureMessage("check failed: " + name);
		}
	}

}
