package dev.perflab.mail.send;

import java.sql.SQLException;

import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The fixed hand-off: one transaction on one connection commits the mail, its receipt tags and an outbox row, and
 * the answer is 202. The relay pushes the row to send afterwards, with no connection held (seed 000's fix, made
 * durable: the seed's plain async call would have lost the send on a crash). The recipient and storage quotas are
 * charged last (in that order in every send), so the send holds its office's counter rows only for its commit, and a
 * refused send leaves nothing behind.
 */
class OutboxHandoff implements SendHandoff {

	private static final int ATTEMPTS = 3;

	/** MySQL's and MariaDB's error code of a transaction chosen as a deadlock's victim */
	private static final int DEADLOCK = 1213;

	private final TransactionTemplate tx;

	private final SentMails mails;

	private final OutboxRelay relay;

	private final RecipientQuota quota;

	private final StorageQuota storage;

	OutboxHandoff(TransactionTemplate tx, SentMails mails, OutboxRelay relay, RecipientQuota quota, StorageQuota storage) {
		this.tx = tx;
		this.mails = mails;
		this.relay = relay;
		this.quota = quota;
		this.storage = storage;
	}

	@Override
	public long commit(Draft draft) {
		for (int attempt = 1;; attempt++) {
			try {
				return tx.execute(status -> {
					long mailNo = mails.mail(draft);
					mails.receiptTags(draft, mailNo);
					mails.outbox(draft, mailNo);
					quota.charge(draft.account(), draft.recipients().size());
					storage.charge(draft.account().office(), draft.size());
					relay.wakeAfterCommit();
					return mailNo;
				});
			}
			catch (PessimisticLockingFailureException e) {
				// sends that take a new hour's counter rows at once can deadlock on InnoDB's gap locks; the victim's
				// transaction was rolled back whole, so it runs again (a lock wait timeout is not retried)
				if (attempt == ATTEMPTS || !deadlock(e)) {
					throw e;
				}
			}
		}
	}

	private static boolean deadlock(Throwable e) {
		for (Throwable t = e; t != null; t = t.getCause()) {
			if (t instanceof SQLException sql && sql.getErrorCode() == DEADLOCK) {
				return true;
			}
		}
		return false;
	}
}
