package dev.perflab.notifier.notification;

import dev.perflab.notifier.NotifierProperties;

/**
 * Lab baseline ({@code perflab.notifier.dispatch=in-transaction-sync}), seeds 001 and 003's start: the provider is
 * called inside the registration's transaction, so the request keeps its DB connection (and its row locks) for the
 * provider's whole answer. Seed 001's 0.5 s SMS with a pool of 10 gave 10 TPS, 1,331 connection timeouts and 23% of
 * registrations succeeding; seed 003's 1 s mail made every sign-up take over a second. Kept to measure the difference.
 */
class InTransactionSyncDispatch implements Dispatch {

	private final NotificationStore inTransaction;

	private final Sender sender;

	private final NotifierProperties.Sweeper settings;

	InTransactionSyncDispatch(NotificationStore store, Sender sender, NotifierProperties properties) {
		this.inTransaction = store.inRequestTransaction();
		this.sender = sender;
		this.settings = properties.sweeper();
	}

	@Override
	public void registered(Pending notification) {
		inTransaction.claimFresh(notification, settings.lease()).ifPresent(n -> sender.deliver(n, inTransaction));
	}
}
