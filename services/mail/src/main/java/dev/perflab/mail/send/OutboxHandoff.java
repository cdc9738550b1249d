package dev.perflab.mail.send;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * The fixed hand-off: one transaction on one connection commits the mail, its receipt tags and an outbox row, and
 * the answer is 202. The relay pushes the row to send afterwards, with no connection held (seed 000's fix, made
 * durable: the seed's plain async call would have lost the send on a crash).
 */
class OutboxHandoff implements SendHandoff {

	private final TransactionTemplate tx;

	private final SentMails mails;

	private final OutboxRelay relay;

	OutboxHandoff(TransactionTemplate tx, SentMails mails, OutboxRelay relay) {
		this.tx = tx;
		this.mails = mails;
		this.relay = relay;
	}

	@Override
	public long commit(Draft draft) {
		return tx.execute(status -> {
			long mailNo = mails.mail(draft);
			mails.receiptTags(draft, mailNo);
			mails.outbox(draft, mailNo);
			relay.wakeAfterCommit();
			return mailNo;
		});
	}
}
