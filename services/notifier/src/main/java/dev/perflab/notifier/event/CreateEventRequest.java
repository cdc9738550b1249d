package dev.perflab.notifier.event;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.perflab.notifier.Fields;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

/** A QR-code event: guests scan its code and sign its guestbook. */
record CreateEventRequest(@Schema(requiredMode = REQUIRED, minLength = 1, maxLength = 200, pattern = Fields.TEXT,
		description = "trimmed; 1 to 200 characters, no control character but a line break") String title) {
}
