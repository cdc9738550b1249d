package dev.perflab.notifier.notification;

/** A message a registration asks for, written as a PENDING notification in the registration's transaction. */
public record Outgoing(String office, Channel channel, String recipient, String template, String subject, String body) {
}
