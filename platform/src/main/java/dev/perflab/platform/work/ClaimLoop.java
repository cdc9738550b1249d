package dev.perflab.platform.work;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Drains a durable queue table with at most {@code concurrency} items in flight per instance: one loop claims due
 * items (in a subclass's short transaction, typically {@code FOR UPDATE SKIP LOCKED} plus a lease) and hands each to
 * a fixed pool, with no connection held while an item is processed. A committed item wakes the loop at once; else it
 * polls. What an instance leaves unfinished (kill -9, shutdown) is the lease's to return, never this loop's memory.
 * Its threads are daemons: a process without a web server (a seeding run) still exits when its work is done.
 *
 * @param <T> a claimed item
 */
public abstract class ClaimLoop<T> implements SmartLifecycle {

	private final Logger log = LoggerFactory.getLogger(getClass());

	private final String name;

	private final int concurrency;

	private final int batchSize;

	private final Duration pollInterval;

	private final Semaphore slots;

	private final Semaphore wakeups = new Semaphore(0);

	private volatile boolean running;

	private Thread loop;

	private ExecutorService pool;

	protected ClaimLoop(String name, int concurrency, int batchSize, Duration pollInterval) {
		this.name = name;
		this.concurrency = concurrency;
		this.batchSize = batchSize;
		this.pollInterval = pollInterval;
		this.slots = new Semaphore(concurrency);
	}

	/** Claims up to {@code limit} due items; each is then this instance's until processed or its lease runs out. */
	protected abstract List<T> claim(int limit);

	/** Processes one claimed item, recording its outcome; runs on the pool, no transaction open. */
	protected abstract void process(T item);

	/** Called about once a second from the loop: backlog gauges, expired leases. */
	protected void housekeeping() {
	}

	/** Called about once a minute from the loop: purges of what is past its retention. */
	protected void purge() {
	}

	/** Something was committed: look now instead of at the next poll. */
	public void wake() {
		if (wakeups.availablePermits() == 0) {
			wakeups.release();
		}
	}

	/**
	 * Wakes the loop once the caller's transaction commits (at once when there is none): the item it wrote is then
	 * visible to the claim.
	 */
	public void wakeAfterCommit() {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			wake();
			return;
		}
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				wake();
			}
		});
	}

	/** {@code first} doubled per attempt after the first, at most {@code max}. */
	public static Duration backoff(Duration first, Duration max, int attempt) {
		Duration delay = first.multipliedBy(1L << Math.min(Math.max(attempt - 1, 0), 20));
		return delay.compareTo(max) > 0 ? max : delay;
	}

	private void run() {
		long lastHousekeeping = 0;
		long lastPurge = System.nanoTime();
		while (running) {
			try {
				if (System.nanoTime() - lastHousekeeping > TimeUnit.SECONDS.toNanos(1)) {
					housekeeping();
					lastHousekeeping = System.nanoTime();
				}
				if (System.nanoTime() - lastPurge > TimeUnit.MINUTES.toNanos(1)) {
					purge();
					lastPurge = System.nanoTime();
				}
				int free = Math.min(slots.availablePermits(), batchSize);
				List<T> claimed = free == 0 ? List.of() : claim(free);
				for (T item : claimed) {
					slots.acquire();
					pool.execute(() -> {
						try {
							process(item);
						}
						catch (RuntimeException e) {
							// left claimed: its lease runs out and it is claimed again
							log.warn("{}: processing failed: {}", name, e.toString());
						}
						finally {
							slots.release();
							wake();
						}
					});
				}
				if (claimed.size() < free || free == 0) {
					wakeups.tryAcquire(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
					wakeups.drainPermits();
				}
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException e) {
				// the database is down or restarting: keep the loop alive and back off
				log.warn("{}: {}", name, e.toString());
				try {
					Thread.sleep(pollInterval.multipliedBy(5));
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	@Override
	public void start() {
		running = true;
		pool = Executors.newFixedThreadPool(concurrency, Thread.ofPlatform().daemon().name(name + "-", 0).factory());
		loop = Thread.ofPlatform().daemon().name(name + "-loop").start(this::run);
	}

	@Override
	public void stop() {
		if (loop == null) {
			return;
		}
		running = false;
		loop.interrupt();
		pool.shutdown();
		try {
			// an item in flight finishes; what does not finish in time is claimed again after its lease
			if (!pool.awaitTermination(15, TimeUnit.SECONDS)) {
				pool.shutdownNow();
			}
			loop.join(Duration.ofSeconds(2));
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return running;
	}

	protected boolean stopping() {
		return !running;
	}
}
