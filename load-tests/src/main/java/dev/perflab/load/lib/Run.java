package dev.perflab.load.lib;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

/**
 * What every thread of one run shares: its lanes (the schedule each one's arrivals keep, its cap on iterations in
 * flight), the callers, and the metrics each request and iteration adds to.
 * <p>
 * An arrival that finds its lane's cap of iterations running is not run and counts as dropped
 * ({@code in_flight_cap}), as k6 drops an iteration when every VU is busy; one that starts more than
 * {@code LATE_AFTER} (1 s) after its due time counts as dropped too ({@code late}): the generator could not keep its
 * schedule, so what it measured is suspect. Samples that end after the run was cut (the graceful stop ran out) are
 * not counted: they are interrupted requests, not the system's answers. Once a stop was asked ({@link RunState}) no
 * iteration starts: arrivals and closed VUs' next iterations are refused, and not counted as dropped.
 */
public final class Run {

	/** How long a wave's VU waits for the others before it goes on without them. */
	static final java.time.Duration TOGETHER_WAIT = java.time.Duration.ofSeconds(60);

	private final List<Lane> lanes;

	private final List<String> tokens;

	private final Map<String, String> trends;

	private final Metrics metrics;

	private final Observer observer;

	private final RunState state;

	/** Where the counted samples are written as a JTL, or null. */
	private final Jtl jtl;

	private volatile long began;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	private volatile long cutAt = Long.MAX_VALUE;

	/** How late an arrival may start before it counts as dropped; the scheduler's own jitter is far below 1 s. */
	private final long lateMillis;

	/** {@code lanes}: the run's streams of iterations, each with its schedule (none for a closed model) and cap. */
	Run(List<Lane> lanes, List<String> tokens, Map<String, String> trends, Metrics metrics, Observer observer,
			long lateMillis, RunState state, Jtl jtl) {
		this.lateMillis = lateMillis;
		this.lanes = lanes;
		this.tokens = tokens;
		this.trends = trends;
		this.metrics = metrics;
		this.observer = observer;
		this.state = state;
		this.jtl = jtl;
	}

	/**
	 * The engine is set up and its schedule would begin: a paused run waits for its start (or its stop) here, then
	 * the test's start time is taken again so the schedule begins now.
	 */
	void awaitStart() throws InterruptedException {
		if (this.state.awaitStart()) {
			JMeterContextService.endTest();
			JMeterContextService.startTest();
		}
		this.began = JMeterContextService.getTestStartTime();
	}

	/** When the schedule began (ms since the epoch), 0 before. */
	long began() {
		return this.began;
	}

	RunState state() {
		return this.state;
	}

	/**
	 * Starts the iteration of thread {@code thread} of lane {@code lane} (the arrival's number in an open model), or
	 * drops it.
	 */
	Iteration begin(int lane, int thread) {
		Lane l = this.lanes.get(lane);
		Schedule schedule = l.schedule;
		l.awaitTogether(() -> this.state.stopAskedAt() != 0, TOGETHER_WAIT);
		long now = System.currentTimeMillis();
		long order = l.seen.getAndIncrement();
		// numbered in the whole run: several runners' iterations never share a number, nor their VUs
		long number = l.share.number(schedule != null ? thread : order);
		long vu = schedule != null ? number : l.firstVu + thread;
		Phase phase = schedule != null && schedule.isWarmup(thread) ? Phase.WARMUP : Phase.MAIN;
		int caller = this.tokens.isEmpty() ? 0 : (int) ((schedule != null ? number : vu) % this.tokens.size());
		if (this.state.stopAskedAt() != 0 || l.closedFor != null && now - this.began >= l.closedFor.toMillis()) {
			return new Iteration(number, phase, caller, now, Iteration.STOPPED, lane);
		}
		if (schedule != null) {
			long late = now - JMeterContextService.getTestStartTime() - schedule.dueMillis(thread);
			this.metrics.trend("iteration_lateness", phase, "", Math.max(0, late));
			if (late > this.lateMillis) {
				return drop(new Iteration(number, phase, caller, now, "late", lane));
			}
		}
		if (l.inFlight.incrementAndGet() > l.cap) {
			l.inFlight.decrementAndGet();
			return drop(new Iteration(number, phase, caller, now, "in_flight_cap", lane));
		}
		this.peak.accumulateAndGet(this.inFlight.incrementAndGet(), Math::max);
		Iteration iteration = new Iteration(number, phase, caller, now, null, lane);
		JMeterVariables vars = JMeterContextService.getContext().getVariables();
		vars.putObject(Iteration.VARIABLE, iteration);
		vars.put(Iteration.NUMBER, Long.toString(number));
		vars.put(Iteration.VU, Long.toString(vu));
		vars.put(Jtl.PHASE, phase.tag());
		vars.put(Iteration.TOKEN, this.tokens.isEmpty() ? "" : this.tokens.get(caller));
		vars.put(Mix.variable(l.name), "true");
		return iteration;
	}

	private void leave(Iteration iteration) {
		this.lanes.get(iteration.lane()).inFlight.decrementAndGet();
		this.inFlight.decrementAndGet();
	}

	private Iteration drop(Iteration iteration) {
		this.metrics.count("dropped_iterations", iteration.phase(), iteration.dropped(), 1);
		this.observer.dropped(iteration.phase(), iteration.dropped());
		return iteration;
	}

	/** The iteration stopped before its last request: its thread was stopped (cut, or a closed run's end). */
	void interrupted(Iteration iteration) {
		leave(iteration);
		this.metrics.count("interrupted_iterations", iteration.phase(), "", 1);
	}

	/** The iteration sent its last request. */
	void end(Iteration iteration) {
		long now = System.currentTimeMillis();
		if (now >= this.cutAt) {
			interrupted(iteration);
			return;
		}
		leave(iteration);
		this.metrics.count("iterations", iteration.phase(), "", 1);
		this.metrics.trend("iteration_duration", iteration.phase(), "", now - iteration.began());
		this.observer.iteration(iteration.phase());
	}

	/** Counts a request's sample (and writes it to the JTL), unless it ended after the run was cut. */
	void sample(SampleEvent event) {
		SampleResult result = event.getResult();
		if (!counts(result.getEndTime())) {
			return;
		}
		JMeterVariables vars = JMeterContextService.getContext().getVariables();
		Phase phase = vars.getObject(Iteration.VARIABLE) instanceof Iteration i ? i.phase() : Phase.MAIN;
		String name = result.getSampleLabel();
		double ms = vars.getObject(Clock.ELAPSED) instanceof Long nanos ? nanos / 1e6 : result.getTime();
		boolean failed = !result.isSuccessful();
		this.metrics.count("http_reqs", phase, name, 1);
		this.metrics.rate("http_req_failed", phase, name, failed);
		this.metrics.trend("http_req_duration", phase, name, ms);
		this.trends.forEach((metric, request) -> {
			if (request.equals(name)) {
				this.metrics.trend(metric, phase, "", ms);
			}
		});
		for (AssertionResult assertion : result.getAssertionResults()) {
			if (assertion instanceof CheckResult) {
				boolean passed = !assertion.isFailure() && !assertion.isError();
				this.metrics.rate("checks", phase, assertion.getName(), passed);
				this.observer.check(phase, passed);
			}
		}
		this.observer.request(phase, name, result.getResponseCode(), !failed, ms / 1000);
		if (this.jtl != null) {
			this.jtl.write(event);
		}
	}

	/** Counts one for a scenario's own counter (a {@link Tally}). */
	void tally(String metric) {
		Object iteration = JMeterContextService.getContext().getVariables().getObject(Iteration.VARIABLE);
		this.metrics.count(metric, iteration instanceof Iteration i ? i.phase() : Phase.MAIN, "", 1);
	}

	/** Counts a check made outside any request (a teardown's), in the main stage. */
	public void check(String name, boolean passed) {
		this.metrics.rate("checks", Phase.MAIN, name, passed);
		this.observer.check(Phase.MAIN, passed);
	}

	/** From now on nothing that ends is counted: what is still running is being interrupted. */
	public void cut() {
		this.cutAt = System.currentTimeMillis();
	}

	/**
	 * Whether a request that ended at {@code endMillis} (ms since the epoch) counts: it ended before the run was cut,
	 * an answer of the system, not a request the runner interrupted.
	 */
	public boolean counts(long endMillis) {
		return endMillis < this.cutAt;
	}

	/** Whether the run was cut: its graceful stop ran out. */
	boolean wasCut() {
		return this.cutAt != Long.MAX_VALUE;
	}

	/** The lanes, in the order their groups run. */
	List<Lane> lanes() {
		return this.lanes;
	}

	/**
	 * Whether every arrival of every lane was due and what ran of them has ended, and every closed part's time is over
	 * (never, for a closed model alone).
	 */
	boolean done() {
		long sinceBegan = System.currentTimeMillis() - this.began;
		return this.lanes.stream().allMatch((lane) -> lane.done(sinceBegan));
	}

	public int inFlight() {
		return this.inFlight.get();
	}

	public int peakInFlight() {
		return this.peak.get();
	}

	/** Iterations in flight at most, all lanes together. */
	public int cap() {
		return this.lanes.stream().mapToInt((l) -> l.cap).sum();
	}

	public Metrics metrics() {
		return this.metrics;
	}

}
