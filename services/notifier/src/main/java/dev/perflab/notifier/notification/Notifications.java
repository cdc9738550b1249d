package dev.perflab.notifier.notification;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.perflab.notifier.NotifierProperties;

/**
 * What registrations call, inside their transaction: writes the PENDING notification, hands it to the configured
 * {@link Dispatch} and charges it to its quotas.
 */
@Component
public class Notifications {

	private final NotificationStore store;

	private final Dispatch dispatch;

	private final NotifierProperties.Sweeper settings;

	private final NotificationQuota quota;

	private final Counter created;

	Notifications(NotificationStore store, Dispatch dispatch, NotificationQuota quota, NotifierProperties properties,
			MeterRegistry meters) {
		this.store = store;
		this.dispatch = dispatch;
		this.quota = quota;
		this.settings = properties.sweeper();
		this.created = counter(meters, "pending");
	}

	/**
	 * Must run inside the registration's transaction, as its last step: the notification commits with it or not at
	 * all, and a quota it passes (429) rolls the whole registration back. The charge comes last so that the counter
	 * rows, which every registration of the office waits for, are held for no statement but the commit; the lab
	 * baseline's provider call comes before it, so there a registration that loses a race for the last unit of a
	 * quota has its message sent and is then refused (its precheck refuses every other one before any work).
	 */
	public long enqueue(Outgoing out) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a notification is written in its registration's transaction");
		}
		long id = store.insert(out, settings.grace());
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				created.increment();
			}
		});
		dispatch.registered(Pending.of(id, out));
		quota.charge(out.office(), out.user(), out.channel(), out.recipient());
		return id;
	}

	static Counter counter(MeterRegistry meters, String status) {
		return Counter.builder("perflab.notifier.notifications")
			.description("notifications entering a status (pending: written with their registration)")
			.tag("status", status)
			.register(meters);
	}
}
