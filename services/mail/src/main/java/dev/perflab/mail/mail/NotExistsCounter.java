package dev.perflab.mail.mail;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.mailbox.Mailboxes;

/** The fixed count: mails of the account, filtered by a correlated NOT EXISTS on locked mailboxes. */
class NotExistsCounter implements MailCounter {

	private final JdbcClient jdbc;

	NotExistsCounter(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public long count(Account account, Long mailbox) {
		return jdbc.sql("""
				SELECT COUNT(*) FROM mail_content m
				WHERE m.office_no = :office AND m.user_no = :user AND m.del_flag = 'N'
				""" + (mailbox == null ? "" : " AND m.mbox_no = :mailbox ") + """
				  AND NOT EXISTS (SELECT 1 FROM personal_mailbox p
				                  WHERE p.no = m.mbox_no AND p.office_no = m.office_no
				                    AND p.lockinfo_type IN """ + Mailboxes.LOCKED_TYPES + ")")
			.param("office", account.office())
			.param("user", account.user())
			.param("mailbox", mailbox)
			.query(Long.class)
			.single();
	}
}
