package dev.perflab.mail.message;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.mailbox.Mailboxes;

/**
 * The fixed count: the account's per-mailbox totals (kept by {@code MailboxCounts} in each write's transaction),
 * minus locked mailboxes by NOT EXISTS. It reads a handful of rows, not the account's mails: the seed's query
 * counted every mail on every list request.
 */
class NotExistsCounter implements MailCounter {

	private final JdbcClient jdbc;

	NotExistsCounter(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public long count(Account account, Long mailbox) {
		return jdbc.sql("""
				SELECT COALESCE(SUM(c.total), 0) FROM mailbox_count c
				WHERE c.office_no = :office AND c.user_no = :user
				""" + (mailbox == null ? "" : " AND c.mbox_no = :mailbox ") + """
				  AND NOT EXISTS (SELECT 1 FROM personal_mailbox p
				                  WHERE p.no = c.mbox_no AND p.office_no = c.office_no
				                    AND p.lockinfo_type IN """ + Mailboxes.LOCKED_TYPES + ")")
			.param("office", account.office())
			.param("user", account.user())
			.param("mailbox", mailbox)
			.query(Long.class)
			.single();
	}
}
