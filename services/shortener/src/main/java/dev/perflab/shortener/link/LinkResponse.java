package dev.perflab.shortener.link;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
record LinkResponse(String code, String shortUrl, String url, boolean permanent, Instant createdAt, Instant expiresAt,
		Long hits) {
}
