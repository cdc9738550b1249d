package dev.perflab.notifier.notification;

/**
 * A provider did not take the message: for good ({@code permanent}) or for now (retried with backoff). The message is
 * the provider's raw answer, for the log and the internal column; {@code reason} is what a caller may see.
 */
class DeliveryFailure extends Exception {

	private final boolean permanent;

	private final FailureReason reason;

	DeliveryFailure(boolean permanent, FailureReason reason, String message) {
		super(message, null, false, false);
		this.permanent = permanent;
		this.reason = reason;
	}

	boolean permanent() {
		return permanent;
	}

	FailureReason reason() {
		return reason;
	}
}
