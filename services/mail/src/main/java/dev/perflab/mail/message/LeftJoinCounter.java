package dev.perflab.mail.message;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.perflab.mail.Accounts.Account;

/**
 * Seed 000's count, kept as the baseline: every mail is LEFT OUTER JOINed to personal_mailbox before the lock
 * filter applies (10.8 TPS at 100 users in the report, 107.7 once split).
 */
class LeftJoinCounter implements MailCounter {

	private final JdbcClient jdbc;

	LeftJoinCounter(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public long count(Account account, Long mailbox) {
		return jdbc.sql("""
				SELECT COUNT(m.no) FROM mail_content m
				LEFT OUTER JOIN personal_mailbox p ON (p.no = m.mbox_no AND m.office_no = p.office_no)
				WHERE m.del_flag = 'N' AND m.office_no = :office AND m.user_no = :user
				""" + (mailbox == null ? "" : " AND m.mbox_no = :mailbox ") + """
				  AND (p.lockinfo_type NOT IN ('B', 'A') OR p.no IS NULL)""")
			.param("office", account.office())
			.param("user", account.user())
			.param("mailbox", mailbox)
			.query(Long.class)
			.single();
	}
}
