package dev.perflab.mail.message;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.MailServiceTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab switch changes how the total is counted, never what it is: the baseline counts the mail rows, the fixed
 * design reads the maintained per-mailbox totals, so this also proves the totals match the rows.
 */
class CountersAgreeTest extends MailServiceTest {

	@Autowired
	JdbcClient jdbcClient;

	@Test
	void leftJoinAndNotExistsCountTheSameMails() {
		MailCounter fixed = new NotExistsCounter(jdbcClient);
		MailCounter baseline = new LeftJoinCounter(jdbcClient);
		for (long user = 1; user <= 20; user++) {
			Account account = new Account(user <= 10 ? 1 : 2, user, "x@y", "u" + user);
			assertThat(baseline.count(account, null)).isEqualTo(fixed.count(account, null)).isPositive();
			for (long mailbox : new long[] { 1, 2, 3, 1000 + (user - 1) * 3 }) {
				assertThat(baseline.count(account, mailbox)).isEqualTo(fixed.count(account, mailbox));
			}
		}
	}
}
