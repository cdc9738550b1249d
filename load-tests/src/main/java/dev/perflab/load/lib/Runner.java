package dev.perflab.load.lib;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.perflab.load.prometheus.Exporter;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

/**
 * One run of one scenario: its schedule from the settings, its setup, the load, then its summaries and its exit
 * status as k6 gave it (0 thresholds held, 99 a threshold crossed, 103 stopped before its schedule's end).
 * <p>
 * A run with CONTROL answers on its control endpoint ({@link Control}) from its start to its summary; a PAUSED one
 * waits there, set up, for its start. A stop (POST /v1/stop, or SIGTERM: a Kubernetes pod deleted) ends the load as
 * at its schedule's end, and the run goes on as usual: teardown, Prometheus' last push, summaries with their
 * thresholds judged. After SIGTERM the JVM exits once that is done, with the run's status (halted: its shutdown has
 * begun, and only a halt sets the status then).
 */
public final class Runner {

	public static final int PASSED = 0;

	public static final int THRESHOLDS_CROSSED = 99;

	/** Stopped by POST /v1/stop or SIGTERM before its schedule's end, as k6 stopped from its REST API. */
	public static final int STOPPED = 103;

	/** How long SIGTERM's hook waits for the run to end beyond its graceful stop. */
	private static final Duration SIGTERM_WAIT = Duration.ofMinutes(2);

	private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

	private Runner() {
	}

	/** Runs {@code scenario}; a {@link SetupFailed} leaves before any load. */
	public static int run(Scenario scenario, Settings settings) throws IOException, InterruptedException {
		Load load = scenario.load(settings);
		Thresholds thresholds = scenario.thresholds(settings);
		List<Lane> lanes = Lane.of(load, settings);
		boolean open = lanes.stream().anyMatch((lane) -> lane.schedule != null);
		Metrics metrics = metrics(thresholds, open);
		RunState state = new RunState(settings.paused(), settings.pauseTimeout());
		boolean thresholdsDecide = settings.thresholdsDecide();
		Duration keepSamples = settings.keepSamples().orElse(null);
		try (Jtl jtl = Jtl.open(settings); Control control = Control.open(settings, state)) {
			Exporter exporter = settings.prometheusRemoteWrite()
				.map((url) -> new Exporter(url, labels(scenario, settings)))
				.orElse(null);
			Run run = new Run(lanes, settings.tokens(), thresholds.trends(), metrics,
					exporter != null ? exporter : Observer.NONE, settings.lateAfter().toMillis(), state, jtl);
			if (exporter != null) {
				exporter.inFlight(run::inFlight);
			}
			String runId = Registry.put(run);
			Thread sigterm = sigterm(state, settings.gracefulStop());
			Integer status = null;
			int result;
			try {
				Scenario.Context context = new Scenario.Context(settings, new Setup(settings.baseUrl()), run, runId);
				List<ThreadGroupChild> iteration = scenario.iteration(context);
				Engine.run(run, runId, load, settings.gracefulStop(), iteration);
				if (jtl != null) {
					jtl.ended();
				}
				if (state.timedOut()) {
					throw new SetupFailed("paused for PAUSE_TIMEOUT=" + Durations.format(settings.pauseTimeout())
							+ " and no POST /v1/start came: nothing was sent");
				}
				state.loadOver();
				double seconds = run.began() == 0 ? 0 : (System.currentTimeMillis() - run.began()) / 1e3;
				scenario.teardown(context);
				if (exporter != null) {
					finalPush(exporter);
				}
				String stoppedBy = state.stoppedBy();
				Summary summary = Summary.of(run, thresholds.list(open), seconds, open)
					.perflab("vuBudget", lanes.stream()
						.filter((lane) -> lane.schedule != null)
						.map((lane) -> budget(lane, thresholds))
						.toList())
					.perflab("engine", "Apache JMeter 5.6.3 through jmeter-java-dsl 2.2")
					.perflab("testid", settings.testid())
					.perflab("scenario", scenario.name());
				Share share = settings.share();
				if (share.runners() > 1) {
					summary.perflab("runners", share.runners()).perflab("runnerIndex", share.index());
				}
				if (stoppedBy != null) {
					summary.perflab("stoppedBy", stoppedBy);
				}
				write(summary, settings.summaryDir(), settings.summaryName(scenario.summaryName(settings)));
				boolean crossed = !summary.failed().isEmpty() && thresholdsDecide;
				status = stoppedBy != null ? STOPPED : crossed ? THRESHOLDS_CROSSED : PASSED;
				if (stoppedBy != null) {
					System.out.println("stopped by " + stoppedBy + " before the schedule's end: exit " + STOPPED);
				}
				result = status;
				// served from here on, so that a runner that says it is done serves its samples
				if (keepSamples != null && !"SIGTERM".equals(stoppedBy)) {
					control.serve(settings.jtl().orElseThrow());
				}
			}
			finally {
				state.done(status);
				Registry.remove(runId);
				try {
					Runtime.getRuntime().removeShutdownHook(sigterm);
				}
				catch (IllegalStateException shuttingDown) {
					// SIGTERM's hook is running: it ends the JVM with the status
				}
			}
			// the samples kept for whoever makes the run's report (`load-tests report`), unless the JVM is going away
			if (keepSamples != null && !"SIGTERM".equals(state.stoppedBy())) {
				control.keep(keepSamples);
			}
			return result;
		}
	}

	/**
	 * The hook SIGTERM runs (the JVM's shutdown hooks): it stops the run, waits for its summary and halts the JVM
	 * with the run's status; a run that does not end in time leaves the JVM to exit as it would (143).
	 */
	private static Thread sigterm(RunState state, Duration gracefulStop) {
		Thread hook = new Thread(() -> {
			state.stop("SIGTERM");
			try {
				Integer status = state.awaitDone(gracefulStop.plus(SIGTERM_WAIT));
				System.out.flush();
				System.err.flush();
				if (status != null) {
					Runtime.getRuntime().halt(status);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "perflab-sigterm");
		Runtime.getRuntime().addShutdownHook(hook);
		return hook;
	}

	private static Metrics metrics(Thresholds thresholds, boolean open) {
		Metrics metrics = new Metrics();
		metrics.declare("http_reqs", Metrics.Kind.COUNTER);
		metrics.declare("http_req_failed", Metrics.Kind.RATE);
		metrics.declare("http_req_duration", Metrics.Kind.TREND);
		metrics.declare("checks", Metrics.Kind.RATE);
		metrics.declare("iterations", Metrics.Kind.COUNTER);
		metrics.declare("iteration_duration", Metrics.Kind.TREND);
		if (open) {
			metrics.declare("dropped_iterations", Metrics.Kind.COUNTER);
		}
		thresholds.trends().keySet().forEach((metric) -> metrics.declare(metric, Metrics.Kind.TREND));
		return metrics;
	}

	private static Map<String, String> labels(Scenario scenario, Settings settings) {
		Map<String, String> labels = new LinkedHashMap<>();
		labels.put("testid", settings.testid());
		labels.put("scenario", scenario.name());
		settings.runner().ifPresent((runner) -> labels.put("runner", runner));
		return labels;
	}

	/** What the generator had to keep the schedule with, for the verdict that reads the drops (generator.py). */
	private static Map<String, Object> budget(Lane lane, Thresholds thresholds) {
		Map<String, Object> budget = new LinkedHashMap<>();
		budget.put("scenario", lane.name);
		budget.put("peakRate", lane.schedule.peakRate());
		budget.put("maxVUs", lane.cap);
		budget.put("sloMs", thresholds.sloMs());
		return budget;
	}

	private static void finalPush(Exporter exporter) throws InterruptedException {
		try {
			exporter.close();
		}
		catch (IOException ex) {
			System.err.println("prometheus remote write failed at the end of the run: " + ex.getMessage());
		}
	}

	private static void write(Summary summary, Path dir, String name) throws IOException {
		Files.createDirectories(dir);
		Map<String, Object> data = summary.data();
		String text = TextReport.of(data, name);
		Files.writeString(dir.resolve(name + "-summary.json"), JSON.writeValueAsString(data), StandardCharsets.UTF_8);
		Files.writeString(dir.resolve(name + "-summary.txt"), text, StandardCharsets.UTF_8);
		System.out.print(text);
		if (!summary.failed().isEmpty()) {
			System.out.println("thresholds crossed: " + String.join(", ", summary.failed()));
		}
	}

}
