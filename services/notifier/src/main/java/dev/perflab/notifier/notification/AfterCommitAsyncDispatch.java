package dev.perflab.notifier.notification;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

import dev.perflab.notifier.NotifierProperties;

/**
 * The fix (default): the registration commits with its PENDING notification, and only then is the send handed to a
 * bounded executor (seed 001: 15 threads, up to 100, a queue of 50), so the request holds its connection for two
 * inserts and answers without waiting for the provider. Seed 001 dropped what the executor refused
 * ({@code DiscardPolicy}); here a refused dispatch is counted and handed to the sweeper, and a dispatch lost with
 * the process (kill -9 after the commit) is still a PENDING row the sweeper finds after its grace. A send touches the
 * database twice, each time one short UPDATE on the {@link WorkDatabase}'s own pool: the first run of seed 001's
 * profile, with sends on the requests' pool, had up to 100 dispatch threads waiting for the same 10 connections as
 * the signings (p95 836 ms, 9 signings refused for want of a connection).
 */
class AfterCommitAsyncDispatch implements Dispatch {

	private static final Logger log = LoggerFactory.getLogger(AfterCommitAsyncDispatch.class);

	private final ApplicationEventPublisher events;

	private final ThreadPoolTaskExecutor executor;

	private final NotificationStore store;

	private final Sender sender;

	private final Sweeper sweeper;

	private final NotifierProperties.Sweeper settings;

	private final Counter rejections;

	AfterCommitAsyncDispatch(ApplicationEventPublisher events, ThreadPoolTaskExecutor executor, NotificationStore store,
			Sender sender, Sweeper sweeper, NotifierProperties properties, MeterRegistry meters) {
		this.events = events;
		this.executor = executor;
		this.store = store;
		this.sender = sender;
		this.sweeper = sweeper;
		this.settings = properties.sweeper();
		this.rejections = Counter.builder("perflab.notifier.dispatch.rejections")
			.description("after-commit dispatches the executor refused (left PENDING for the sweeper)").register(meters);
	}

	@Override
	public void registered(Pending notification) {
		events.publishEvent(new Committed(notification));
	}

	@TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
	public void afterCommit(Committed committed) {
		Pending pending = committed.notification();
		try {
			// the claim (one UPDATE) and the outcome (one UPDATE) use the work pool: never a request's connection
			executor.execute(() -> store.claimFresh(pending, settings.lease()).ifPresent(sender::deliver));
		}
		catch (TaskRejectedException e) {
			rejections.increment();
			log.debug("dispatch of notification {} refused (executor full): left to the sweeper", pending.id());
			sweeper.take(pending.id());
		}
	}

	/** A registration with this notification committed; the message travels with it. */
	record Committed(Pending notification) {
	}
}
