package dev.perflab.load.lib;

/**
 * Where a sample belongs: the warm-up, reported apart, or the main stage, which thresholds judge (k6's
 * {@code scenario:warmup} and {@code scenario:main} tags).
 */
public enum Phase {

	WARMUP("warmup"), MAIN("main");

	private final String tag;

	Phase(String tag) {
		this.tag = tag;
	}

	public String tag() {
		return this.tag;
	}

}
