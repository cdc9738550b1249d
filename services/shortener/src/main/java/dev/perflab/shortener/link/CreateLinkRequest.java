package dev.perflab.shortener.link;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotBlank;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

/** Unknown fields are refused (400), not ignored: a typo in {@code expiresAt} must not create an immortal link. */
record CreateLinkRequest(
		@NotBlank @Schema(requiredMode = REQUIRED, format = "uri", maxLength = UrlPolicy.MAX_LENGTH, pattern = URL,
				description = "an absolute http(s) URL with a host and no user info") String url,
		@Schema(description = "at least one second and at most ten years from now; absent: never") Instant expiresAt,
		Boolean permanent) {

	/** the URLs {@link UrlPolicy} takes, as a schema pattern (percent-escapes left out) */
	static final String URL = "^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?::[0-9]{1,5})?(?:/[A-Za-z0-9._~!$&'()*+,;=:@/-]*)?(?:\\?[A-Za-z0-9._~!$&'()*+,;=:@/?-]*)?(?:#[A-Za-z0-9._~!$&'()*+,;=:@/?-]*)?$";

}
