package dev.perflab.notifier.member;

import java.time.Instant;

/** A member as the API answers it; {@code notificationId} is the welcome mail. */
record Member(long id, String email, String name, Instant createdAt, Long notificationId) {
}
