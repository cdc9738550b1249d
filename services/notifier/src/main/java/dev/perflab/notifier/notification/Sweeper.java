package dev.perflab.notifier.notification;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;
import dev.perflab.platform.work.ClaimLoop;

/**
 * Sends what the after-commit dispatch did not: dispatches the executor refused (handed over in memory and claimed
 * at once), notifications due again after a failure's backoff, and those a crash or a lost dispatch left PENDING
 * (due once their grace or lease has run out). Safe with several replicas: claims are {@code SKIP LOCKED} with a
 * lease, and each outcome is recorded on the claim's attempt only. Runs in both lab settings.
 */
@Component
class Sweeper extends ClaimLoop<Claimed> {

	private final NotificationStore store;

	private final Sender sender;

	private final NotificationQuota quota;

	private final NotifierProperties.Sweeper settings;

	private final Queue<Long> refused = new ConcurrentLinkedQueue<>();

	private final AtomicLong backlog = new AtomicLong();

	private final AtomicLong oldestAge = new AtomicLong();

	Sweeper(NotificationStore store, Sender sender, NotificationQuota quota, NotifierProperties properties,
			MeterRegistry meters) {
		super("sweeper", properties.sweeper().concurrency(), properties.sweeper().concurrency(),
				properties.sweeper().pollInterval());
		this.store = store;
		this.sender = sender;
		this.quota = quota;
		this.settings = properties.sweeper();
		Gauge.builder("perflab.notifier.backlog", backlog, AtomicLong::get)
			.description("PENDING notifications (in the whole table: every replica reports the same)").register(meters);
		Gauge.builder("perflab.notifier.backlog.age", oldestAge, AtomicLong::get)
			.description("age of the oldest PENDING notification").baseUnit("seconds").register(meters);
	}

	/** A dispatch the executor refused: claim it at the next turn instead of after its grace. */
	void take(long notificationId) {
		refused.add(notificationId);
		wake();
	}

	@Override
	protected List<Claimed> claim(int limit) {
		List<Long> ids = new ArrayList<>();
		for (Long id; ids.size() < limit && (id = refused.poll()) != null;) {
			ids.add(id);
		}
		List<Claimed> claimed = new ArrayList<>(store.claimUntried(ids, settings.lease()));
		if (claimed.size() < limit) {
			claimed.addAll(store.claimDue(limit - claimed.size(), settings.lease()));
		}
		return claimed;
	}

	@Override
	protected void process(Claimed notification) {
		sender.deliver(notification);
	}

	@Override
	protected void housekeeping() {
		long[] now = store.backlog();
		backlog.set(now[0]);
		oldestAge.set(now[1]);
	}

	/** The quota's counters of windows long past (the sweeper runs in every replica and both lab settings). */
	@Override
	protected void purge() {
		quota.purge();
	}
}
