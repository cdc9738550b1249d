package dev.perflab.gateway.auth;

import java.util.regex.Pattern;

import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * The one spelling of a caller the gateway lets through. Services compared identities differently (mail parses the
 * office as a number, so "01" and "1" were one office there and two in route and notifier; route keeps 64 characters
 * of a user, tokens allowed 128): a token whose subject or office is not in canonical form is refused at the edge,
 * with the rule in the 401's detail, so every service sees each caller spelled one way.
 */
final class CanonicalIdentity {

	static final String SUBJECT_RULE = "sub must be 1-64 characters of a-z, 0-9, '.', '_', '@' and '-' (lower case)";

	static final String OFFICE_RULE = "must be a whole number from 1 to 2147483647, without sign or leading zeros";

	private static final Pattern SUBJECT = Pattern.compile("[a-z0-9._@-]{1,64}");

	private static final Pattern OFFICE = Pattern.compile("[1-9][0-9]{0,9}");

	private CanonicalIdentity() {
	}

	static OAuth2TokenValidator<Jwt> subject() {
		return jwt -> jwt.getClaims().get("sub") instanceof String sub && SUBJECT.matcher(sub).matches()
				? OAuth2TokenValidatorResult.success() : failure(SUBJECT_RULE);
	}

	/** A JSON string or integer; {@code 1.0}, {@code "01"}, {@code "+1"} and {@code 2^31} are not offices. */
	static OAuth2TokenValidator<Jwt> office(String claim) {
		return jwt -> isOffice(jwt.getClaims().get(claim)) ? OAuth2TokenValidatorResult.success()
				: failure(claim + " " + OFFICE_RULE);
	}

	static boolean isOffice(Object value) {
		String text = value instanceof String s ? s
				: value instanceof Integer || value instanceof Long ? value.toString() : null;
		return text != null && OFFICE.matcher(text).matches() && Long.parseLong(text) <= Integer.MAX_VALUE;
	}

	private static OAuth2TokenValidatorResult failure(String rule) {
		return OAuth2TokenValidatorResult.failure(new OAuth2Error(OAuth2ErrorCodes.INVALID_TOKEN, rule, null));
	}
}
