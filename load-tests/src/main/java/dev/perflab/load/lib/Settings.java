package dev.perflab.load.lib;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every setting of a run, read once from the environment and then from {@code KEY=VALUE} arguments (an argument wins),
 * and checked before any load: a bad value is a {@link BadInput} naming the key and the value.
 *
 * <pre>
 *   BASE_URL       the gateway (http://127.0.0.1:8080)
 *   TOKEN          the bearer token of the only caller, unless CALLER_TOKENS
 *   CALLER_TOKENS  one bearer token per caller, whitespace-separated; iterations take them round robin
 *   PROFILE        smoke | average | stress | spike | soak (smoke)
 *   RATE           iterations/s of the main stage (the scenario's own default)
 *   DURATION       the main stage's length (the profile's default)
 *   WARMUP         a warm-up at half the rate before it, reported apart (5s; 0s for none)
 *   MAX_IN_FLIGHT  iterations running at once at most; an arrival past it is dropped (the scenario's default)
 *   GRACEFUL_STOP  how long iterations still running when the schedule ends may finish (30s)
 *   LATE_AFTER     how late after its due time an arrival may start before it counts as dropped (1s)
 *   SUMMARY_DIR    where the summaries go (.)
 *   SUMMARY_NAME   their name, SUMMARY_NAME-summary.json and .txt (the scenario's name)
 *   TESTID         the run's id, a label of every metric in Prometheus (local-&lt;time&gt;)
 *   PROMETHEUS_RW_URL  Prometheus' remote-write endpoint; none: nothing is pushed
 *   RUNNER         this runner's name among several, a label of its metrics (RUNNER_INDEX + 1 when RUNNERS > 1)
 *   RUNNERS        how many runners share the run, each its part of the load (1)
 *   RUNNER_INDEX   this runner's place among them, 0-based (JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, else 0)
 *   CONTROL        host:port of the run's control endpoint (none; port 0: a free one, printed)
 *   PAUSED         true: set everything up, then wait for POST /v1/start (false; needs CONTROL)
 *   PAUSE_TIMEOUT  how long a paused run waits for its start (10m)
 *   JTL            a file for every sample of the run, JMeter's CSV JTL (none)
 * </pre>
 */
public final class Settings {

	private final Map<String, String> values;

	private Settings(Map<String, String> values) {
		this.values = values;
	}

	public static Settings of(Map<String, String> environment, List<String> arguments) {
		Map<String, String> values = new HashMap<>(environment);
		for (String argument : arguments) {
			int eq = argument.indexOf('=');
			if (eq <= 0) {
				throw new BadInput(argument + ": not KEY=VALUE");
			}
			values.put(argument.substring(0, eq), argument.substring(eq + 1));
		}
		Settings settings = new Settings(values);
		settings.profile();
		settings.rate();
		settings.duration();
		settings.warmup();
		settings.gracefulStop();
		settings.lateAfter();
		settings.maxInFlight();
		settings.testid();
		settings.share();
		settings.control();
		settings.paused();
		settings.pauseTimeout();
		return settings;
	}

	public String baseUrl() {
		return text("BASE_URL", "http://127.0.0.1:8080").replaceAll("/+$", "");
	}

	/** The callers' tokens: CALLER_TOKENS, else TOKEN alone, else none. */
	public List<String> tokens() {
		String tokens = text("CALLER_TOKENS", "").isBlank() ? text("TOKEN", "") : text("CALLER_TOKENS", "");
		return Arrays.stream(tokens.trim().split("\\s+")).filter((t) -> !t.isEmpty()).toList();
	}

	public Profile profile() {
		return Profile.named(text("PROFILE", "smoke"));
	}

	public Optional<Double> rate() {
		return optional("RATE").map((v) -> positive("RATE", v));
	}

	public Optional<Duration> duration() {
		return optional("DURATION").map((v) -> positive("DURATION", Durations.parse("DURATION", v)));
	}

	public Duration warmup() {
		return Durations.parse("WARMUP", text("WARMUP", "5s"));
	}

	public Duration gracefulStop() {
		return Durations.parse("GRACEFUL_STOP", text("GRACEFUL_STOP", "30s"));
	}

	public Duration lateAfter() {
		return positive("LATE_AFTER", Durations.parse("LATE_AFTER", text("LATE_AFTER", "1s")));
	}

	public Optional<Integer> maxInFlight() {
		return optional("MAX_IN_FLIGHT").map((v) -> positiveInt("MAX_IN_FLIGHT", v));
	}

	public Path summaryDir() {
		return Path.of(text("SUMMARY_DIR", "."));
	}

	public String summaryName(String scenario) {
		return text("SUMMARY_NAME", scenario);
	}

	public String testid() {
		String testid = text("TESTID", "");
		if (testid.isEmpty()) {
			testid = "local-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
			values.put("TESTID", testid);
		}
		if (!testid.matches("[A-Za-z0-9_.:-]+")) {
			throw new BadInput("TESTID=" + testid + ": letters, digits and _.:- only");
		}
		return testid;
	}

	public Optional<String> prometheusRemoteWrite() {
		return optional("PROMETHEUS_RW_URL");
	}

	/** The label of this runner's metrics: RUNNER, else its place (RUNNER_INDEX + 1) when several share the run. */
	public Optional<String> runner() {
		Optional<String> runner = optional("RUNNER");
		Share share = share();
		return runner.isPresent() || share.runners() == 1 ? runner : Optional.of(Integer.toString(share.index() + 1));
	}

	/** This runner's part of the run: RUNNERS, and RUNNER_INDEX (else JOB_COMPLETION_INDEX, else 0) below it. */
	public Share share() {
		int runners = positiveInt("RUNNERS", 1);
		String key = optional("RUNNER_INDEX").isPresent() ? "RUNNER_INDEX" : "JOB_COMPLETION_INDEX";
		String value = text(key, "0");
		int index;
		try {
			index = Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw new BadInput(key + "=" + value + ": not a whole number from 0 to RUNNERS - 1");
		}
		if (index < 0 || index >= runners) {
			throw new BadInput(key + "=" + value + ": from 0 to " + (runners - 1) + " (RUNNERS=" + runners + ")");
		}
		return new Share(runners, index);
	}

	/** Where the control endpoint listens (CONTROL=host:port), if anywhere. */
	public Optional<InetSocketAddress> control() {
		return optional("CONTROL").map((value) -> {
			int colon = value.lastIndexOf(':');
			String host = colon > 0 ? value.substring(0, colon).replaceAll("^\\[|]$", "") : "";
			int port = -1;
			try {
				port = colon > 0 ? Integer.parseInt(value.substring(colon + 1)) : -1;
			}
			catch (NumberFormatException ex) {
				// refused below
			}
			if (host.isEmpty() || port < 0 || port > 65535) {
				throw new BadInput("CONTROL=" + value + ": not host:port (like 0.0.0.0:6565, or port 0 for a free one)");
			}
			return InetSocketAddress.createUnresolved(host, port);
		});
	}

	/** Whether the run waits for POST /v1/start once it is set up (PAUSED=true, with CONTROL). */
	public boolean paused() {
		String value = text("PAUSED", "false");
		if (!value.equals("true") && !value.equals("false")) {
			throw new BadInput("PAUSED=" + value + ": true or false");
		}
		if (value.equals("true") && optional("CONTROL").isEmpty()) {
			throw new BadInput("PAUSED=true: needs CONTROL=host:port, where POST /v1/start starts the run");
		}
		return value.equals("true");
	}

	/**
	 * Whether the thresholds decide the exit status (THRESHOLDS=on, the default). {@code off}: a measurement, where a
	 * slow run is a figure, not a failure; the summary still says which thresholds were crossed.
	 */
	public boolean thresholdsDecide() {
		String value = text("THRESHOLDS", "on");
		if (!value.equals("on") && !value.equals("off")) {
			throw new BadInput("THRESHOLDS=" + value + ": on or off");
		}
		return value.equals("on");
	}

	/**
	 * How long the run's samples are kept for its report once it is over (KEEP_SAMPLES): its control endpoint then
	 * serves the JTL ({@code GET /v1/samples}) until {@code POST /v1/release} or the time runs out. Needs JTL and CONTROL.
	 */
	public Optional<Duration> keepSamples() {
		Optional<Duration> keep = optional("KEEP_SAMPLES").map((v) -> Durations.parse("KEEP_SAMPLES", v));
		if (keep.isPresent() && (jtl().isEmpty() || optional("CONTROL").isEmpty())) {
			throw new BadInput("KEEP_SAMPLES=" + text("KEEP_SAMPLES", "") + ": needs JTL (the samples) and CONTROL (where they are served)");
		}
		return keep.filter((d) -> !d.isZero());
	}

	public Duration pauseTimeout() {
		return positive("PAUSE_TIMEOUT", Durations.parse("PAUSE_TIMEOUT", text("PAUSE_TIMEOUT", "10m")));
	}

	/** Where the run's samples go as a JTL, if anywhere. */
	public Optional<Path> jtl() {
		return optional("JTL").map(Path::of);
	}

	/** A scenario's own setting (VUS, IDENTITY, ...), or its default. */
	public String text(String key, String fallback) {
		return optional(key).orElse(fallback);
	}

	/** A scenario's own count (VUS, ...), checked like the shared ones. */
	public int positiveInt(String key, int fallback) {
		return optional(key).map((v) -> positiveInt(key, v)).orElse(fallback);
	}

	private Optional<String> optional(String key) {
		String value = values.get(key);
		return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
	}

	private static double positive(String key, String value) {
		try {
			double number = Double.parseDouble(value);
			if (number > 0 && Double.isFinite(number)) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// refused below
		}
		throw new BadInput(key + "=" + value + ": not a positive number");
	}

	private static Duration positive(String key, Duration value) {
		if (value.isZero()) {
			throw new BadInput(key + "=0: must be longer than 0");
		}
		return value;
	}

	private static int positiveInt(String key, String value) {
		try {
			int number = Integer.parseInt(value);
			if (number > 0) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// refused below
		}
		throw new BadInput(key + "=" + value + ": not a positive whole number");
	}

}
