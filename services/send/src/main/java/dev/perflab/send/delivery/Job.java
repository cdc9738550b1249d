package dev.perflab.send.delivery;

import java.util.List;

/**
 * A claimed job with the recipients still to deliver. {@code attempt} is the claim's token: only the worker that
 * holds it may settle the job.
 */
record Job(String id, long mailNo, long office, String sender, boolean separateSend, byte[] eml, int attempt,
		List<Recipient> pending) {

	/** @param receiptKey the read-receipt key this recipient's message carries (null without read receipts) */
	record Recipient(String email, String kind, String receiptKey) {
	}

	/**
	 * One SMTP transaction per unit. A plain mail is one message to every recipient (Bcc only in the envelope);
	 * a separate send or a mail with read receipts is one message per recipient, each with its own key.
	 */
	List<List<Recipient>> units() {
		if (messagePerRecipient() || pending.isEmpty()) {
			return pending.stream().map(List::of).toList();
		}
		return List.of(pending);
	}

	/** a separate send, or read receipts (each recipient's message carries their own key) */
	boolean messagePerRecipient() {
		return separateSend || pending.stream().anyMatch(r -> r.receiptKey() != null);
	}
}
