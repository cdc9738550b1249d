package dev.perflab.send.delivery;

/** What the relay said about one recipient of one SMTP transaction. */
record Outcome(String email, Result result, String reply, String messageId, String receiptUrl) {

	enum Result {

		/** accepted by the relay (250 after DATA) */
		DELIVERED,
		/** refused for good (a 5xx reply): not retried */
		FAILED,
		/** try again later (a 4xx reply) */
		RETRY,
		/** try again later: the relay said nothing (refused connection, timeout) */
		UNREACHABLE

	}
}
