package dev.perflab.shortener.link;

import java.time.Instant;

import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.mapping.Document;

/** A short code and where it points; {@code hits} is advanced in batches by {@link HitCounter}. */
@Document("links")
record Link(@Id long id, String code, String url, boolean permanent, String owner, String office, Instant createdAt,
		Instant expiresAt, long hits) {

	boolean expiredAt(Instant now) {
		return expiresAt != null && !now.isBefore(expiresAt);
	}
}
