package dev.perflab.notifier.guestbook;

/** A guest signing an event's guestbook; the phone gets the confirmation SMS. */
record SignRequest(String name, String phone, String message) {
}
