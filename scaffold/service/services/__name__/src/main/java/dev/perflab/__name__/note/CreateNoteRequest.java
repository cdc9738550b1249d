package dev.perflab.__name__.note;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

/** Unknown fields are refused (400), not ignored. */
record CreateNoteRequest(@NotBlank @Size(max = Note.MAX_TEXT)
		@Schema(requiredMode = REQUIRED, maxLength = Note.MAX_TEXT, pattern = "\\S", description = "not blank") String text) {
}
