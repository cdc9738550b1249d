package dev.perflab.notifier.notification;

/** A provider did not take the message: for good ({@code permanent}) or for now (retried with backoff). */
class DeliveryFailure extends Exception {

	private final boolean permanent;

	DeliveryFailure(boolean permanent, String message) {
		super(message, null, false, false);
		this.permanent = permanent;
	}

	boolean permanent() {
		return permanent;
	}
}
