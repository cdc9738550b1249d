package dev.perflab.load.lib;

/**
 * One iteration of a scenario as its thread sees it: its number in its lane (unique, 0-based, among all runners' when
 * several share the run), its phase, its caller and when it began; {@code dropped} names why it never ran
 * ({@code in_flight_cap} or {@code late}, or {@link #STOPPED}), null when it ran; {@code lane}: the index of the run's
 * lane it belongs to.
 */
public record Iteration(long number, Phase phase, int caller, long began, String dropped, int lane) {

	/** The JMeter variable that holds the iteration of the thread's current iteration. */
	public static final String VARIABLE = "perflab.iteration";

	/** The JMeter variable that holds the caller's bearer token ({@code Bearer ${perflab.token}}). */
	public static final String TOKEN = "perflab.token";

	/** The JMeter variable that holds the iteration's number, as text for requests' bodies and paths. */
	public static final String NUMBER = "perflab.number";

	/**
	 * The JMeter variable that holds the number of the VU running the iteration among all runners' VUs (a closed
	 * model's; an open model's iteration number), as text.
	 */
	public static final String VU = "perflab.vu";

	/**
	 * Why an iteration asked for after the run's stop, or after its closed part's time ({@link Load.Parts}), never ran;
	 * it is not counted as dropped.
	 */
	static final String STOPPED = "stopped";

	public boolean ran() {
		return this.dropped == null;
	}

}
