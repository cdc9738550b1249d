package dev.perflab.send.delivery;

import java.time.Instant;
import java.util.List;
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
 */
@Component
public class DeliveryWorker extends ClaimLoop<String> {

	private static final Logger log = LoggerFactory.getLogger(DeliveryWorker.class);

	private final DeliveryStore store;

	private final SmtpRelay relay;

	private final SendProperties.Delivery settings;

	private final AtomicLong backlog = new AtomicLong();

	private final Counter delivered;

	private final Counter failed;

	private final Counter retried;

	private final Timer smtp;

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
	protected List<String> claim(int limit) {
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
	protected void process(String jobId) {
		Job job = store.load(jobId).orElse(null);
		if (job == null) {
			return;
		}
		for (List<Job.Recipient> unit : job.units()) {
			Timer.Sample sample = Timer.start();
			List<Outcome> outcomes = relay.send(job, unit);
			sample.stop(smtp);
			store.record(jobId, outcomes);
			count(outcomes);
			if (outcomes.stream().anyMatch(o -> o.result() == Result.UNREACHABLE)) {
				break; // the relay is down: the other units would only wait for the same timeout
			}
		}
		int pending = store.settle(job, settings.maxAttempts(), settings.backoffAfter(job.attempt()));
		if (pending > 0) {
			log.info("job {} (mail {}): {} recipients pending, attempt {} of {}", jobId, job.mailNo(), pending, job.attempt(),
					settings.maxAttempts());
		}
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
}
