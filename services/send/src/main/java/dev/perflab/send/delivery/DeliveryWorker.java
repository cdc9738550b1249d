package dev.perflab.send.delivery;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.perflab.platform.work.ClaimLoop;
import dev.perflab.send.SendProperties;
import dev.perflab.send.delivery.Outcome.Result;

/**
 * Delivers due jobs with at most {@code concurrency} in flight per instance. The loop claims jobs (SKIP LOCKED,
 * a lease per job) and hands them to a fixed pool; each job is delivered with no connection held, and its outcome
 * recorded in short transactions. A job whose worker died is claimed again when its lease runs out.
 * <p>
 * A worker keeps its job's lease while it works: each recorded outcome renews it, and a heartbeat renews it every
 * third of a lease, so one long SMTP transaction (a plain mail to many recipients at a slow relay) keeps it too. Both
 * renew only under the worker's own claim (the job still {@code SENDING} under the attempt it claimed). A worker that
 * finds its lease lost (its instance stalled past the lease, and the job was re-queued and perhaps claimed by another)
 * sends none of the job's remaining recipients and settles nothing: the job is the new holder's. Without the
 * renewal a job that outlasted one lease (300 recipients with receipts at a 0.1 s relay) was re-queued and sent
 * again by a second worker. What the heartbeat keeps is bounded: every SMTP command and every statement has a
 * timeout, so a worker's job ends or fails; a dead or frozen instance renews nothing and its jobs return.
 */
@Component
public class DeliveryWorker extends ClaimLoop<Claim> {

	private static final Logger log = LoggerFactory.getLogger(DeliveryWorker.class);

	private final DeliveryStore store;

	private final SmtpRelay relay;

	private final SendProperties.Delivery settings;

	private final AtomicLong backlog = new AtomicLong();

	private final Counter delivered;

	private final Counter failed;

	private final Counter retried;

	private final Timer smtp;

	/** renews the leases of the jobs in flight (started and stopped with the loop) */
	private volatile ScheduledExecutorService heartbeat;

	DeliveryWorker(DeliveryStore store, SmtpRelay relay, SendProperties properties, MeterRegistry meters) {
		super("delivery", properties.delivery().concurrency(), properties.delivery().concurrency(),
				properties.delivery().pollInterval());
		this.store = store;
		this.relay = relay;
		this.settings = properties.delivery();
		this.delivered = Counter.builder("perflab.send.recipients").tag("result", "delivered").register(meters);
		this.failed = Counter.builder("perflab.send.recipients").tag("result", "failed").register(meters);
		this.retried = Counter.builder("perflab.send.recipients").tag("result", "retry").register(meters);
		this.smtp = Timer.builder("perflab.send.smtp").description("one SMTP transaction").publishPercentileHistogram()
			.register(meters);
		meters.gauge("perflab.send.backlog", backlog);
	}

	@Override
	public void start() {
		heartbeat = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("delivery-lease").factory());
		super.start();
	}

	@Override
	public void stop() {
		// after the jobs in flight finished (or were given up on): their leases are renewed until then
		super.stop();
		ScheduledExecutorService beating = heartbeat;
		if (beating != null) {
			beating.shutdownNow();
		}
	}

	@Override
	protected List<Claim> claim(int limit) {
		return store.claim(limit, settings.lease());
	}

	@Override
	protected void housekeeping() {
		int requeued = store.requeueExpired();
		if (requeued > 0) {
			log.warn("requeued {} jobs whose lease ran out (a worker died or stalled)", requeued);
		}
		backlog.set(store.backlog());
	}

	@Override
	protected void purge() {
		Instant before = Instant.now().minus(settings.retention());
		while (store.purgeFinished(before, 500) == 500 && !stopping()) {
			// in batches: no long lock on the tables
		}
	}

	@Override
	protected void process(Claim claim) {
		Job job = store.load(claim).orElse(null);
		if (job == null) {
			return; // settled, or re-queued and claimed again since this claim
		}
		try (Lease lease = new Lease(job)) {
			for (List<Job.Recipient> unit : job.units()) {
				if (!lease.held()) {
					lost(job);
					return;
				}
				Timer.Sample sample = Timer.start();
				List<Outcome> outcomes = relay.send(job, unit);
				sample.stop(smtp);
				lease.renewed(store.record(job, outcomes, settings.lease()));
				count(outcomes);
				if (outcomes.stream().anyMatch(o -> o.result() == Result.UNREACHABLE)) {
					break; // the relay is down: the other units would only wait for the same timeout
				}
			}
			if (!lease.held()) {
				lost(job);
				return;
			}
			int pending = store.settle(job, settings.maxAttempts(), settings.backoffAfter(job.attempt()));
			if (pending == DeliveryStore.LOST) {
				lost(job);
			}
			else if (pending > 0) {
				log.info("job {} (mail {}): {} recipients pending, attempt {} of {}", job.id(), job.mailNo(), pending,
						job.attempt(), settings.maxAttempts());
			}
		}
	}

	private void lost(Job job) {
		log.warn("job {} (mail {}): its lease (attempt {}) ran out and the job was re-queued; this worker stops, its "
				+ "remaining recipients are the next claim's", job.id(), job.mailNo(), job.attempt());
	}

	private void count(List<Outcome> outcomes) {
		for (Outcome o : outcomes) {
			switch (o.result()) {
				case DELIVERED -> delivered.increment();
				case FAILED -> failed.increment();
				case RETRY, UNREACHABLE -> retried.increment();
			}
		}
	}

	/**
	 * One job's lease while its worker sends: renewed by each recorded outcome and by a heartbeat every third of a
	 * lease, and lost for good once a renewal finds the job is not this worker's any more.
	 */
	private final class Lease implements AutoCloseable {

		private final Job job;

		private final ScheduledFuture<?> beat;

		private volatile boolean held = true;

		Lease(Job job) {
			this.job = job;
			long period = Math.max(settings.lease().toMillis() / 3, 1);
			this.beat = heartbeat.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
		}

		private void renew() {
			try {
				if (held && !store.renew(job, settings.lease())) {
					held = false;
				}
			}
			catch (RuntimeException e) {
				// the database is unreachable: the next renewal, or the worker's next record, tells
				log.warn("job {}: lease not renewed: {}", job.id(), e.toString());
			}
		}

		boolean held() {
			return held;
		}

		/** @param stillHeld what the last renewal found */
		void renewed(boolean stillHeld) {
			if (!stillHeld) {
				held = false;
			}
		}

		@Override
		public void close() {
			beat.cancel(false);
		}
	}
}
