package dev.perflab.load.prometheus;

import java.io.IOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

import dev.perflab.load.lib.Observer;
import dev.perflab.load.lib.Phase;

/**
 * The run's metrics in Prometheus, remote-written every 5 s and once more when the run ends, cumulative from the
 * runner's start: a counter of requests and a native histogram of their durations (seconds) per phase, request name,
 * status and outcome, counters of iterations, of dropped iterations and of checks, and a gauge of the iterations in
 * flight. Every series carries the run's {@code testid} and {@code scenario} (and {@code runner} when there are
 * several).
 *
 * <pre>
 *   perflab_load_http_reqs_total{testid, scenario, phase, name, status, expected_response}
 *   perflab_load_http_req_duration_seconds{...the same}                       native histogram, schema 3
 *   perflab_load_iterations_total{testid, scenario, phase}
 *   perflab_load_dropped_iterations_total{testid, scenario, phase, reason}   reason: in_flight_cap | late
 *   perflab_load_checks_total{testid, scenario, phase, result}                result: pass | fail
 *   perflab_load_iterations_in_flight{testid, scenario}                       gauge, at each push
 * </pre>
 */
public final class Exporter implements Observer, AutoCloseable {

	private static final long PERIOD_SECONDS = 5;

	private final Map<String, String> run;

	private final RemoteWriter writer;

	private final Map<SortedMap<String, String>, LongAdder> counters = new ConcurrentHashMap<>();

	private final Map<SortedMap<String, String>, NativeHistogram> histograms = new ConcurrentHashMap<>();

	private final ScheduledExecutorService pusher = Executors.newSingleThreadScheduledExecutor((r) -> {
		Thread thread = new Thread(r, "prometheus-remote-write");
		thread.setDaemon(true);
		return thread;
	});

	private volatile String lastError;

	private volatile IntSupplier inFlight = () -> 0;

	/** {@code run}: the labels of every series (testid, scenario, runner). */
	public Exporter(String url, Map<String, String> run) {
		this.run = run;
		this.writer = new RemoteWriter(url);
		this.pusher.scheduleAtFixedRate(this::pushQuietly, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
	}

	@Override
	public void request(Phase phase, String name, String status, boolean expected, double seconds) {
		SortedMap<String, String> labels = labels(phase, "name", name, "status", status, "expected_response",
				Boolean.toString(expected));
		this.counters.computeIfAbsent(named("perflab_load_http_reqs_total", labels), (k) -> new LongAdder())
			.increment();
		this.histograms.computeIfAbsent(named("perflab_load_http_req_duration_seconds", labels),
				(k) -> new NativeHistogram())
			.observe(seconds);
	}

	@Override
	public void check(Phase phase, boolean passed) {
		this.counters
			.computeIfAbsent(named("perflab_load_checks_total", labels(phase, "result", passed ? "pass" : "fail")),
					(k) -> new LongAdder())
			.increment();
	}

	/** What the gauge of iterations in flight reads at each push. */
	public void inFlight(IntSupplier inFlight) {
		this.inFlight = inFlight;
	}

	@Override
	public void iteration(Phase phase) {
		this.counters.computeIfAbsent(named("perflab_load_iterations_total", labels(phase)), (k) -> new LongAdder())
			.increment();
	}

	@Override
	public void dropped(Phase phase, String reason) {
		this.counters
			.computeIfAbsent(named("perflab_load_dropped_iterations_total", labels(phase, "reason", reason)),
					(k) -> new LongAdder())
			.increment();
	}

	private SortedMap<String, String> labels(Phase phase, String... more) {
		SortedMap<String, String> labels = new TreeMap<>(this.run);
		labels.put("phase", phase.tag());
		for (int i = 0; i < more.length; i += 2) {
			labels.put(more[i], more[i + 1]);
		}
		return labels;
	}

	private static SortedMap<String, String> named(String name, SortedMap<String, String> labels) {
		SortedMap<String, String> all = new TreeMap<>(labels);
		all.put("__name__", name);
		return all;
	}

	/** Sends every series' current value. */
	public synchronized void push() throws IOException, InterruptedException {
		long now = System.currentTimeMillis();
		WriteRequest request = new WriteRequest();
		this.counters.forEach((labels, count) -> request.sample(labels, count.sum(), now));
		this.histograms.forEach((labels, h) -> request.histogram(labels, h.snapshot(), now));
		SortedMap<String, String> gauge = new TreeMap<>(this.run);
		gauge.put("__name__", "perflab_load_iterations_in_flight");
		request.sample(gauge, this.inFlight.getAsInt(), now);
		this.writer.send(request.bytes());
	}

	private void pushQuietly() {
		try {
			push();
			this.lastError = null;
		}
		catch (IOException | RuntimeException ex) {
			if (!String.valueOf(ex.getMessage()).equals(this.lastError)) {
				System.err.println("prometheus remote write failed: " + ex.getMessage());
			}
			this.lastError = String.valueOf(ex.getMessage());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Stops the periodic pushes and sends the last values: the run's final samples reach Prometheus. */
	@Override
	public void close() throws IOException, InterruptedException {
		this.pusher.shutdownNow();
		this.pusher.awaitTermination(10, TimeUnit.SECONDS);
		push();
	}

}
