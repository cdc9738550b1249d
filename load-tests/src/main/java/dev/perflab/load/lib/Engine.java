package dev.perflab.load.lib;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jorphan.collections.HashTree;

import us.abstracta.jmeter.javadsl.core.DslTestPlan;
import us.abstracta.jmeter.javadsl.core.DslTestPlan.TestPlanChild;
import us.abstracta.jmeter.javadsl.core.TestPlanStats;
import us.abstracta.jmeter.javadsl.core.engines.EmbeddedJmeterEngine;
import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;
import us.abstracta.jmeter.javadsl.http.DslHttpSampler.HttpClientImpl;

import static us.abstracta.jmeter.javadsl.JmeterDsl.httpCache;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpCookies;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpDefaults;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpHeaders;
import static us.abstracta.jmeter.javadsl.JmeterDsl.testPlan;
import static us.abstracta.jmeter.javadsl.JmeterDsl.threadGroup;

/**
 * Runs a scenario's iteration in JMeter's embedded engine, open or closed, and ends the run as k6 ends a scenario:
 * when the last arrival is due and every iteration still running has finished, or when the graceful stop runs out
 * (then the run is cut first, so what is interrupted is not counted). A stop asked on the way ends it the same way:
 * no iteration starts after it, those in flight get the graceful stop.
 * <p>
 * Requests go through the JDK's HttpURLConnection (JMeter's Java implementation): its keep-alive cache is one for the
 * process, so an open model's arrivals, each a new JMeter thread, reuse connections as k6's VUs did; with HttpClient 4
 * every arrival's thread would open and close connections of its own.
 */
final class Engine {

	private Engine() {
	}

	static void run(Run run, String runId, Load load, Duration gracefulStop, List<ThreadGroupChild> iteration)
			throws IOException, InterruptedException {
		System.setProperty("http.maxConnections", Integer.toString(Math.max(5, run.cap())));
		// a POST on a connection the server had closed must fail, not be sent twice
		System.setProperty("sun.net.http.retryPost", "false");
		Duration end;
		Duration grace = gracefulStop;
		List<TestPlanChild> groups = new ArrayList<>();
		Runnable stop;
		// a closed model's VUs: this runner's share of them; a runner with none runs no group (and no thread)
		int vus = run.lanes().get(0).cap;
		if (load instanceof Load.Closed closed) {
			if (vus > 0) {
				groups.add(threadGroup("closed model", vus, closed.duration(), new IterationGate(runId, 0, iteration)));
			}
			end = closed.duration().plus(closed.gracefulStop());
			grace = closed.gracefulStop();
			stop = StandardJMeterEngine::stopEngineNow;
		}
		else if (load instanceof Load.Once once) {
			if (vus > 0) {
				groups.add(threadGroup("closed model", vus, 1, new IterationGate(runId, 0, iteration)));
			}
			end = once.maxDuration().plus(once.gracefulStop());
			grace = once.gracefulStop();
			stop = StandardJMeterEngine::stopEngineNow;
		}
		else if (load instanceof Load.Parts parts) {
			// each part its group: arrivals of its own, or a crowd looping for its duration (its threads end then)
			List<OpenModel> open = new ArrayList<>();
			Duration longest = Duration.ZERO;
			int i = 0;
			for (Load part : parts.parts().values()) {
				Lane lane = run.lanes().get(i);
				IterationGate gate = new IterationGate(runId, i++, iteration);
				if (part instanceof Load.Closed closed) {
					if (lane.cap > 0) {
						groups.add(threadGroup(lane.name, lane.cap, closed.duration(), gate));
					}
					longest = max(longest, closed.duration().plus(closed.gracefulStop()));
					grace = max(grace, closed.gracefulStop());
				}
				else {
					OpenModel model = new OpenModel(lane.name, lane.schedule.text(), List.of(gate));
					open.add(model);
					groups.add(model);
					longest = max(longest,
							Duration.ofMillis(Math.round(lane.schedule.arrivalSeconds() * 1000)).plus(gracefulStop));
				}
			}
			end = longest;
			// done: the open parts end early, the crowds have ended themselves; cut: every thread is stopped
			stop = () -> {
				open.forEach(OpenModel::end);
				if (run.wasCut()) {
					StandardJMeterEngine.stopEngineNow();
				}
			};
		}
		else {
			// one open model per lane, side by side: each keeps its own schedule
			List<OpenModel> open = new ArrayList<>();
			double seconds = 0;
			for (int i = 0; i < run.lanes().size(); i++) {
				Lane lane = run.lanes().get(i);
				open.add(new OpenModel(lane.name, lane.schedule.text(), List.of(new IterationGate(runId, i, iteration))));
				seconds = Math.max(seconds, lane.schedule.arrivalSeconds());
			}
			groups.addAll(open);
			end = Duration.ofMillis(Math.round(seconds * 1000)).plus(gracefulStop);
			stop = () -> open.forEach(OpenModel::end);
		}
		List<TestPlanChild> children = new ArrayList<>(List.of(
				httpDefaults().clientImpl(HttpClientImpl.JAVA)
					.connectionTimeout(Duration.ofSeconds(10))
					.responseTimeout(Duration.ofSeconds(60)),
				// as k6 and every browser ask: compressed answers (JMeter's Java client inflates gzip)
				httpHeaders().header("Accept-Encoding", "gzip"),
				httpCache().disable(), httpCookies().disable(), Clock.start(), Clock.stop(), new StartGate(runId)));
		children.addAll(groups);
		children.add(new Recorder(runId));
		DslTestPlan plan = testPlan(children.toArray(TestPlanChild[]::new));
		Duration graceAfterStop = grace;
		Thread stopper = Thread.ofPlatform()
			.daemon()
			.name("perflab-stopper")
			.start(() -> stop(run, end, graceAfterStop, stop));
		try {
			new Quiet().prop("sampleresult.default.encoding", "UTF-8")
				.prop("summariser.out", "false")
				.prop("summariser.log", "false")
				// every sample carries the runner's own duration and its phase, for the JTL
				.prop("sample_variables", Jtl.VARIABLES)
				.run(plan);
		}
		finally {
			stopper.interrupt();
			// it tells the engine to stop: not the next run's
			stopper.join(5000);
		}
	}

	/**
	 * Ends an open run once it has nothing left to do, and any run when its graceful stop is over: {@code end} after
	 * the schedule began, or {@code grace} after a stop was asked (sooner when nothing is in flight). The groups are
	 * told to stop until the engine is over: a run stopped before its schedule began has groups that start after.
	 */
	private static void stop(Run run, Duration end, Duration grace, Runnable stop) {
		try {
			long start;
			while ((start = run.began()) == 0) {
				Thread.sleep(10);
			}
			while (true) {
				Thread.sleep(20);
				long now = System.currentTimeMillis();
				long stopAskedAt = run.state().stopAskedAt();
				boolean done = run.done() || stopAskedAt != 0 && run.inFlight() == 0;
				long deadline = start + end.toMillis();
				if (stopAskedAt != 0) {
					deadline = Math.min(deadline, Math.max(start, stopAskedAt) + grace.toMillis());
				}
				if (done || now >= deadline) {
					if (!done) {
						run.cut();
					}
					break;
				}
			}
			while (true) {
				stop.run();
				Thread.sleep(100);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static Duration max(Duration a, Duration b) {
		return a.compareTo(b) >= 0 ? a : b;
	}

	/** The DSL's embedded engine without its own statistics collector: the run's recorder counts every request. */
	private static final class Quiet extends EmbeddedJmeterEngine {

		@Override
		protected void addStatsCollector(HashTree testPlanTree, TestPlanStats stats) {
		}

	}

}
