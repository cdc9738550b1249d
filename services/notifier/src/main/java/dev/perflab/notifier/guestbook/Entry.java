package dev.perflab.notifier.guestbook;

import java.time.Instant;

/**
 * A guestbook entry as the API answers it; the phone is masked in lists. {@code notificationId} is set on the answer
 * to a signing only.
 */
record Entry(long id, long eventId, String name, String phone, String message, Instant createdAt, Long notificationId) {
}
