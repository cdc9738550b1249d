package dev.perflab.notifier.notification;

/**
 * A notification as its registration wrote it, carried to the dispatch with the commit: the send needs the message,
 * and reading it back would be one more statement (and one more wait for a connection) per notification.
 */
record Pending(long id, Channel channel, String recipient, String subject, String body) {

	static Pending of(long id, Outgoing out) {
		return new Pending(id, out.channel(), out.recipient(), out.subject(), out.body());
	}

	Claimed claimed(int attempt) {
		return new Claimed(id, channel, recipient, subject, body, attempt);
	}
}
