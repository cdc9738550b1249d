package dev.perflab.send.delivery;

import java.util.List;

/**
 * A claimed job with the recipients still to deliver. {@code attempt} is the claim's token: only the worker that
 * holds it may settle the job.
 */
record Job(long mailNo, long office, String sender, boolean separateSend, String certKey, byte[] eml, int attempt,
		List<Recipient> pending) {

	record Recipient(String email, String kind) {
	}

	/**
	 * One SMTP transaction per unit. A plain mail is one message to every recipient (Bcc only in the envelope);
	 * a separate send or a mail with read receipts is one message per recipient, each with its own tag.
	 */
	List<List<Recipient>> units() {
		if (messagePerRecipient() || pending.isEmpty()) {
			return pending.stream().map(List::of).toList();
		}
		return List.of(pending);
	}

	/** a separate send, or read receipts (each recipient's message carries their own tag) */
	boolean messagePerRecipient() {
		return separateSend || certKey != null;
	}
}
