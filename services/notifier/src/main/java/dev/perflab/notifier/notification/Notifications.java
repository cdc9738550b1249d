package dev.perflab.notifier.notification;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.perflab.notifier.NotifierProperties;

/**
 * What registrations call, inside their transaction: writes the PENDING notification and hands it to the configured
 * {@link Dispatch}.
 */
@Component
public class Notifications {

	private final NotificationStore store;

	private final Dispatch dispatch;

	private final NotifierProperties.Sweeper settings;

	private final Counter created;

	Notifications(NotificationStore store, Dispatch dispatch, NotifierProperties properties, MeterRegistry meters) {
		this.store = store;
		this.dispatch = dispatch;
		this.settings = properties.sweeper();
		this.created = counter(meters, "pending");
	}

	/** Must run inside the registration's transaction: the notification commits with it or not at all. */
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
		return id;
	}

	static Counter counter(MeterRegistry meters, String status) {
		return Counter.builder("perflab.notifier.notifications")
			.description("notifications entering a status (pending: written with their registration)")
			.tag("status", status)
			.register(meters);
	}
}
