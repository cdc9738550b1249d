package dev.perflab.send.delivery;

/** What the relay said about one recipient of one SMTP transaction. */
record Outcome(String email, Result result, String reply, String messageId, String receiptUrl) {

	enum Result {

		/** accepted by the relay (250 after DATA) */
		DELIVERED,
		/** refused for good (a 5xx reply, or an address that can never be delivered): not retried */
		FAILED,
		/** try again later (a 4xx reply, or the relay broke off this unit's conversation) */
		RETRY,
		/** try again later: the relay cannot be reached or stopped answering (refused connection, timeout); ends the pass */
		UNREACHABLE

	}
}
