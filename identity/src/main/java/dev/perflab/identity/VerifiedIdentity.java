package dev.perflab.identity;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Who called, as an identity token proved it: the issuer that signed it, its subject (a user id, or a service's
 * name), the user's office (gateway tokens only) and when the proof runs out.
 */
public record VerifiedIdentity(String issuer, String subject, @Nullable String office, Instant expiresAt) {
}
