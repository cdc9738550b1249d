package dev.perflab.notifier.notification;

/**
 * Lab switch {@code perflab.notifier.dispatch}: what happens to a notification once its registration wrote it.
 * Called inside the registration's transaction, right after the PENDING row is inserted.
 */
interface Dispatch {

	void registered(Pending notification);
}
