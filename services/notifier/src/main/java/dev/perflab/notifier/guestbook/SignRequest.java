package dev.perflab.notifier.guestbook;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.perflab.notifier.Fields;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

/** A guest signing an event's guestbook; the phone gets the confirmation SMS. */
record SignRequest(
		@Schema(requiredMode = REQUIRED, minLength = 1, maxLength = 50, pattern = Fields.TEXT,
				description = "trimmed; 1 to 50 characters, no control character but a line break") String name,
		@Schema(requiredMode = REQUIRED, pattern = Fields.PHONE, description = "E.164 (+821012345678), 00 and the "
				+ "country code, the country code alone, or a national number from 0 (Korea); spaces and hyphens ignored")
		String phone,
		@Schema(requiredMode = REQUIRED, minLength = 1, maxLength = 500, pattern = Fields.TEXT,
				description = "trimmed; 1 to 500 characters, no control character but a line break") String message) {
}
