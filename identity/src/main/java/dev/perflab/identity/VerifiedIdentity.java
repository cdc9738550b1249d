package dev.perflab.identity;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Who called, as an identity token proved it: the issuer that signed it, its subject (a user id, or a service's
 * name), the user's office (gateway tokens only), when the proof runs out, and for a token bound to one request
 * ({@link IdentitySigner#signRequest}) that request's method, path and body digest.
 */
public record VerifiedIdentity(String issuer, String subject, @Nullable String office, Instant expiresAt,
		@Nullable Request request) {

	public VerifiedIdentity(String issuer, String subject, @Nullable String office, Instant expiresAt) {
		this(issuer, subject, office, expiresAt, null);
	}

	/** The request a token was signed for: its method, path and the base64url SHA-256 of its body. */
	public record Request(String method, String path, String bodyDigest) {
	}
}
