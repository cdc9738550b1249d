package dev.perflab.notifier.event;

import java.time.Instant;

/** A QR-code event as the API answers it; {@code code} is what its QR code carries. */
public record QrEvent(long id, String title, String code, Instant createdAt) {
}
