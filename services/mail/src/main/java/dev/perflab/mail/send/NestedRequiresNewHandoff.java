package dev.perflab.mail.send;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seed 000's hand-off, kept to reproduce its deadlock on demand: the request's transaction holds a connection,
 * writes the receipt tags and the send row in a REQUIRES_NEW transaction (a second connection, so the send
 * server could read them before the main commit), then calls send synchronously inside the open transaction.
 * With N requests in flight and a pool of N, every request holds one connection and waits for a second: the pool
 * starves until connection-timeout. The recipient and storage quotas are charged last in the nested transaction, so a
 * refused send commits nothing there either; a mail the outer transaction then fails to commit stays counted, as its
 * outbox row stays written (the seed's design commits those apart).
 */
class NestedRequiresNewHandoff implements SendHandoff {

	private final TransactionTemplate tx;

	private final TransactionTemplate requiresNew;

	private final SentMails mails;

	private final OutboxRelay relay;

	private final RecipientQuota quota;

	private final StorageQuota storage;

	NestedRequiresNewHandoff(PlatformTransactionManager transactions, SentMails mails, OutboxRelay relay,
			RecipientQuota quota, StorageQuota storage) {
		this.tx = new TransactionTemplate(transactions);
		this.requiresNew = new TransactionTemplate(transactions);
		this.requiresNew.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
		this.mails = mails;
		this.relay = relay;
		this.quota = quota;
		this.storage = storage;
	}

	@Override
	public long commit(Draft draft) {
		return tx.execute(status -> {
			long mailNo = mails.mail(draft);
			long outboxId = requiresNew.execute(inner -> {
				mails.receiptTags(draft, mailNo);
				long id = mails.outbox(draft, mailNo);
				quota.charge(draft.account(), draft.recipients().size());
				storage.charge(draft.account().office(), draft.size());
				return id;
			});
			// as in the seed, a failed call is swallowed and the transaction commits anyway; the relay retries it
			relay.pushNow(outboxId);
			return mailNo;
		});
	}
}
