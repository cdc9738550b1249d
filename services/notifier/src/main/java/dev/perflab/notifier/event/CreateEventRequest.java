package dev.perflab.notifier.event;

/** A QR-code event: guests scan its code and sign its guestbook. */
record CreateEventRequest(String title) {
}
