package dev.perflab.notifier.notification;

/**
 * A notification one sender holds: {@code attempt} is the claim's token, and only the holder of that attempt may
 * settle it.
 */
record Claimed(long id, Channel channel, String recipient, String subject, String body, int attempt) {

	/** The same for every attempt: a provider (or the sink) recognises a message sent again after a crash. */
	String messageId() {
		return "notification-" + id;
	}
}
