package dev.perflab.shortener.link;

import java.time.Instant;

import jakarta.validation.constraints.NotBlank;

/** Unknown fields are refused (400), not ignored: a typo in {@code expiresAt} must not create an immortal link. */
record CreateLinkRequest(@NotBlank String url, Instant expiresAt, Boolean permanent) {
}
