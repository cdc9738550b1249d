package dev.perflab.notifier.notification;

/**
 * A message a registration asks for, written as a PENDING notification in the registration's transaction;
 * {@code office} and {@code user} are the caller's, counted against their quotas with the recipient.
 */
public record Outgoing(String office, String user, Channel channel, String recipient, String template, String subject,
		String body) {
}
