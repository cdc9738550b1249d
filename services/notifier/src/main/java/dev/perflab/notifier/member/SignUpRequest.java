package dev.perflab.notifier.member;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.perflab.notifier.Fields;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

/** A sign-up; the password is hashed before anything is written and never stored or logged as given. */
record SignUpRequest(
		@Schema(requiredMode = REQUIRED, format = "email", maxLength = 254,
				description = "a bare address of printable ASCII with a dotted domain; stored lower-cased") String email,
		@Schema(requiredMode = REQUIRED, minLength = 1, maxLength = 50, pattern = Fields.TEXT,
				description = "trimmed; 1 to 50 characters, no control character but a line break") String name,
		@Schema(requiredMode = REQUIRED, minLength = 8, maxLength = 72, format = "password",
				description = "at least 8 characters, at most 72 bytes of UTF-8") String password) {

	@Override
	public String toString() {
		return "SignUpRequest[email=" + email + ", name=" + name + ", password=(hidden)]";
	}
}
