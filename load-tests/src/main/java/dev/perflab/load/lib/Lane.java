package dev.perflab.load.lib;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One stream of iterations of a run, with its own schedule and its own cap on iterations in flight: a run's only one
 * ({@code main}), or one part of a mix beside the others, each at its own rate (k6's scenarios side by side).
 * {@code schedule} is null for a closed model: each thread loops, nothing is due. When several runners share the run,
 * the lane is this runner's part of it ({@code share}): its share of the arrivals, or of the VUs ({@code cap}), the
 * first of them numbered {@code firstVu} among all runners' VUs.
 */
final class Lane {

	/** The name of a run's only lane. */
	static final String MAIN = "main";

	final String name;

	final Schedule schedule;

	final int cap;

	final AtomicInteger inFlight = new AtomicInteger();

	final AtomicLong seen = new AtomicLong();

	final Share share;

	final int firstVu;

	/** How long a closed part of {@link Load.Parts} runs (none of its iterations starts after it), else null. */
	final Duration closedFor;

	/**
	 * A wave's start ({@link Load.Once}): every VU of this runner's share waits here until all of them are ready, so
	 * their requests begin together (JMeter starts a thread group's threads one after another); else null.
	 */
	final CountDownLatch together;

	Lane(String name, Schedule schedule, int cap, Share share, int firstVu) {
		this(name, schedule, cap, share, firstVu, null);
	}

	private Lane(String name, Schedule schedule, int cap, Share share, int firstVu, Duration closedFor) {
		this(name, schedule, cap, share, firstVu, closedFor, null);
	}

	private Lane(String name, Schedule schedule, int cap, Share share, int firstVu, Duration closedFor,
			CountDownLatch together) {
		this.together = together;
		this.name = name;
		this.schedule = schedule;
		this.cap = cap;
		this.share = share;
		this.firstVu = firstVu;
		this.closedFor = closedFor;
	}

	/**
	 * The lanes of {@code load} under {@code settings}: the PROFILE's shape after a warm-up at the rate (RATE, else
	 * the scenario's), the scenario's own schedule, a closed crowd, a mix's parts, each at its rate times RATE (1
	 * by default, at least 1/s) with its warm-up and the PROFILE's shape, or parts of their own kinds (a lane each).
	 * MAX_IN_FLIGHT caps each open lane (each runner's own cap when several share the run); RUNNERS and RUNNER_INDEX
	 * pick this runner's share.
	 */
	static List<Lane> of(Load load, Settings settings) {
		Duration tail = settings.gracefulStop().plus(Duration.ofSeconds(5));
		Share share = settings.share();
		return switch (load) {
			case Load.Open o -> List.of(new Lane(MAIN, shaped(settings.rate().orElse(o.rate()), settings, tail, share),
					settings.maxInFlight().orElse(o.maxInFlight()), share, 0));
			case Load.Arrivals a -> List.of(new Lane(MAIN, Schedule.of(0, Duration.ZERO, a.segments(), tail, share),
					settings.maxInFlight().orElse(a.maxInFlight()), share, 0));
			case Load.Closed c -> List.of(new Lane(MAIN, null, share.vus(c.vus()), share, share.firstVu(c.vus())));
			case Load.Once o -> List.of(new Lane(MAIN, null, share.vus(o.vus()), share, share.firstVu(o.vus()), null,
					new CountDownLatch(share.vus(o.vus()))));
			case Load.Mix m -> m.rates().entrySet().stream().map((part) -> {
				double rate = Math.max(1, Math.round(part.getValue() * settings.rate().orElse(1.0)));
				return new Lane(part.getKey(), shaped(rate, settings, tail, share),
						settings.maxInFlight().orElse(m.maxInFlight()), share, 0);
			}).toList();
			case Load.Parts p -> p.parts().entrySet().stream().map((part) -> {
				Lane lane = of(part.getValue(), settings).get(0);
				return new Lane(part.getKey(), lane.schedule, lane.cap, share, lane.firstVu,
						part.getValue() instanceof Load.Closed c ? c.duration() : null);
			}).toList();
		};
	}

	/**
	 * A wave's VU waits here until every VU of its share is (nothing for other lanes), at most {@code wait} (a thread
	 * JMeter never started must not hold the others) or until {@code stopped} says the run is stopped.
	 */
	void awaitTogether(BooleanSupplier stopped, Duration wait) {
		if (this.together == null) {
			return;
		}
		this.together.countDown();
		long deadline = System.nanoTime() + wait.toNanos();
		try {
			while (!this.together.await(50, TimeUnit.MILLISECONDS)) {
				if (stopped.getAsBoolean() || System.nanoTime() > deadline) {
					return;
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static Schedule shaped(double rate, Settings settings, Duration tail, Share share) {
		return Schedule.of(rate, settings.warmup(), settings.profile().segments(rate, settings.duration().orElse(null)),
				tail, share);
	}

	/**
	 * Whether the lane has nothing left to run {@code sinceBegan} ms after the schedule began: every arrival was due
	 * and what ran of them has ended, or a closed part's time is over and its iterations have ended (never, for a
	 * closed model alone: its crowd ends itself).
	 */
	boolean done(long sinceBegan) {
		if (this.schedule == null) {
			return this.closedFor != null && sinceBegan >= this.closedFor.toMillis() && this.inFlight.get() == 0;
		}
		return this.seen.get() >= this.schedule.arrivals() && this.inFlight.get() == 0;
	}

}
