package dev.perflab.load.lib;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where a run is, as its control endpoint and its SIGTERM hook see it and move it on: setting up, paused (set up and
 * waiting for its start), running, stopping (a stop was asked, or the load is over: what is in flight finishes, the
 * summary is written) and done. A stop asked before the load is over ends the run as at its schedule's end; the runner
 * then exits {@link Runner#STOPPED}.
 */
public final class RunState {

	/** The states, as {@code GET /v1/status} names them. */
	public enum State {

		SETUP, PAUSED, RUNNING, STOPPING, DONE;

		public String json() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private final boolean paused;

	private final Duration pauseTimeout;

	private final CountDownLatch released = new CountDownLatch(1);

	private final CompletableFuture<Integer> finished = new CompletableFuture<>();

	private State state = State.SETUP;

	private String stoppedBy;

	private volatile long stopAskedAt;

	private boolean timedOut;

	/** {@code paused}: the run waits for {@link #start} once set up, at most {@code pauseTimeout}. */
	RunState(boolean paused, Duration pauseTimeout) {
		this.paused = paused;
		this.pauseTimeout = pauseTimeout;
	}

	public synchronized State state() {
		return this.state;
	}

	/** Starts a paused run; false when the run is not paused. */
	public synchronized boolean start() {
		if (this.state != State.PAUSED) {
			return false;
		}
		this.state = State.RUNNING;
		this.released.countDown();
		return true;
	}

	/**
	 * Ends the run as at its schedule's end, {@code by} whom (control, SIGTERM); false when it is done. A run whose
	 * load is already over is not stopped: it ends as it would have.
	 */
	public synchronized boolean stop(String by) {
		if (this.state == State.DONE) {
			return false;
		}
		if (this.state != State.STOPPING) {
			this.stoppedBy = by;
			this.stopAskedAt = System.currentTimeMillis();
			this.state = State.STOPPING;
			this.released.countDown();
		}
		return true;
	}

	/**
	 * Called when the run is set up and its schedule would begin: a paused run waits here for its start or its stop,
	 * and answers true; when neither comes within the pause's timeout the run is stopped and {@link #timedOut()} says
	 * so.
	 */
	boolean awaitStart() throws InterruptedException {
		synchronized (this) {
			if (this.state != State.SETUP) {
				return false;
			}
			this.state = this.paused ? State.PAUSED : State.RUNNING;
			if (!this.paused) {
				return false;
			}
		}
		if (!this.released.await(this.pauseTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
			synchronized (this) {
				if (this.state == State.PAUSED) {
					this.timedOut = true;
					this.stopAskedAt = System.currentTimeMillis();
					this.state = State.STOPPING;
				}
			}
		}
		return true;
	}

	/** The load is over (its schedule's end, or a stop): what follows is the teardown and the summary. */
	synchronized void loadOver() {
		if (this.state == State.RUNNING || this.state == State.SETUP || this.state == State.PAUSED) {
			this.state = State.STOPPING;
		}
	}

	/** The run is over; {@code status} is its exit status (null when it failed). */
	void done(Integer status) {
		synchronized (this) {
			this.state = State.DONE;
		}
		this.finished.complete(status);
	}

	/** The run's exit status once it is over, or null when it failed or was not over within {@code timeout}. */
	Integer awaitDone(Duration timeout) throws InterruptedException {
		try {
			return this.finished.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			return null;
		}
	}

	/** When a stop was asked (ms since the epoch), 0 while none was: from then on no iteration starts. */
	long stopAskedAt() {
		return this.stopAskedAt;
	}

	/** Who stopped the run before its load was over (control, SIGTERM), or null. */
	public synchronized String stoppedBy() {
		return this.stoppedBy;
	}

	/** Whether a paused run was never started within its timeout. */
	synchronized boolean timedOut() {
		return this.timedOut;
	}

}
