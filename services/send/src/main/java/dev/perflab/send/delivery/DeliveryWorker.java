package dev.perflab.send.delivery;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.perflab.send.SendProperties;
import dev.perflab.send.delivery.Outcome.Result;

/**
 * Delivers due jobs with at most {@code concurrency} in flight per instance. One loop claims jobs (SKIP LOCKED,
 * a lease per job) and hands them to a fixed pool; each job is delivered with no connection held, and its
 * outcome recorded in short transactions. A job whose worker died is claimed again when its lease runs out.
 */
@Component
public class DeliveryWorker implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(DeliveryWorker.class);

	private final DeliveryStore store;

	private final SmtpRelay relay;

	private final SendProperties.Delivery settings;

	private final Semaphore slots;

	private final Semaphore wakeups = new Semaphore(0);

	private final AtomicLong backlog = new AtomicLong();

	private final Counter delivered;

	private final Counter failed;

	private final Counter retried;

	private final Timer smtp;

	private volatile boolean running;

	private Thread loop;

	private ExecutorService pool;

	DeliveryWorker(DeliveryStore store, SmtpRelay relay, SendProperties properties, MeterRegistry meters) {
		this.store = store;
		this.relay = relay;
		this.settings = properties.delivery();
		this.slots = new Semaphore(settings.concurrency());
		this.delivered = Counter.builder("perflab.send.recipients").tag("result", "delivered").register(meters);
		this.failed = Counter.builder("perflab.send.recipients").tag("result", "failed").register(meters);
		this.retried = Counter.builder("perflab.send.recipients").tag("result", "retry").register(meters);
		this.smtp = Timer.builder("perflab.send.smtp").description("one SMTP transaction").publishPercentileHistogram()
			.register(meters);
		meters.gauge("perflab.send.backlog", backlog);
	}

	/** A job was accepted: look now instead of at the next poll. */
	public void wake() {
		if (wakeups.availablePermits() == 0) {
			wakeups.release();
		}
	}

	private void run() {
		long lastRequeue = 0;
		while (running) {
			try {
				if (System.nanoTime() - lastRequeue > TimeUnit.SECONDS.toNanos(1)) {
					int requeued = store.requeueExpired();
					if (requeued > 0) {
						log.warn("requeued {} jobs whose lease ran out (a worker died or stalled)", requeued);
					}
					backlog.set(store.backlog());
					lastRequeue = System.nanoTime();
				}
				int free = slots.availablePermits();
				List<Long> claimed = free == 0 ? List.of() : store.claim(free, settings.lease());
				for (Long mailNo : claimed) {
					slots.acquire();
					pool.execute(() -> {
						try {
							deliver(mailNo);
						}
						finally {
							slots.release();
							wake();
						}
					});
				}
				if (claimed.size() < free || free == 0) {
					wakeups.tryAcquire(settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
					wakeups.drainPermits();
				}
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (RuntimeException e) {
				// the database is down or restarting: keep the loop alive, back off a little
				log.warn("delivery loop: {}", e.toString());
				sleep(settings.pollInterval().multipliedBy(5));
			}
		}
	}

	private void deliver(long mailNo) {
		try {
			Job job = store.load(mailNo).orElse(null);
			if (job == null) {
				return;
			}
			for (List<Job.Recipient> unit : job.units()) {
				Timer.Sample sample = Timer.start();
				List<Outcome> outcomes = relay.send(job, unit);
				sample.stop(smtp);
				store.record(mailNo, outcomes);
				count(outcomes);
				if (outcomes.stream().allMatch(o -> o.result() == Result.RETRY) && isConnectionFailure(outcomes)) {
					break; // the relay is unreachable: the other units would only wait for the same timeout
				}
			}
			int pending = store.settle(job, settings.maxAttempts(), settings.backoffAfter(job.attempt()));
			if (pending > 0) {
				log.info("mail {}: {} recipients pending, attempt {} of {}", mailNo, pending, job.attempt(),
						settings.maxAttempts());
			}
		}
		catch (RuntimeException e) {
			// left SENDING: the lease runs out and the job is claimed again
			log.warn("mail {}: delivery pass failed: {}", mailNo, e.toString());
		}
	}

	private static boolean isConnectionFailure(List<Outcome> outcomes) {
		String reply = outcomes.getFirst().reply();
		return reply != null && reply.startsWith(SmtpRelay.NO_REPLY);
	}

	private void count(List<Outcome> outcomes) {
		for (Outcome o : outcomes) {
			switch (o.result()) {
				case DELIVERED -> delivered.increment();
				case FAILED -> failed.increment();
				case RETRY -> retried.increment();
			}
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void start() {
		running = true;
		pool = Executors.newFixedThreadPool(settings.concurrency(), Thread.ofPlatform().name("delivery-", 0).factory());
		loop = Thread.ofPlatform().name("delivery-loop").start(this::run);
	}

	@Override
	public void stop() {
		running = false;
		loop.interrupt();
		pool.shutdown();
		try {
			// a message on the wire finishes; what does not finish in time is claimed again after its lease
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
}
