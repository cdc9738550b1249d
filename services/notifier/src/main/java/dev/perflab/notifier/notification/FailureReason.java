package dev.perflab.notifier.notification;

import java.util.Locale;

/**
 * What a caller learns of a failed attempt: a stable category, never the provider's own words. A provider's reply can
 * carry its account, its hosts, the recipient and its rules, and a notification is read by anyone in the office; the
 * raw reply stays in {@code notification.last_error} and the log.
 */
enum FailureReason {

	/** the provider answered and refused this message for good (SMS 4xx, SMTP 5xx) */
	PROVIDER_REJECTED,
	/** the provider answered but took nothing for now (SMS 408, 429, 5xx; SMTP 4xx): retried */
	PROVIDER_UNAVAILABLE,
	/** no answer: refused connection, timeout, a send cut short (retried) */
	PROVIDER_UNREACHABLE,
	/** the recipient could not be addressed at all */
	INVALID_RECIPIENT;

	/** as the API and the {@code last_error_reason} column spell it */
	final String slug = name().toLowerCase(Locale.ROOT).replace('_', '-');
}
