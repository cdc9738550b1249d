package dev.perflab.__name__.note;

import java.time.Instant;

/** One note as the API answers it. */
record Note(long id, String text, String createdBy, Instant createdAt) {

	static final int MAX_TEXT = 500;
}
