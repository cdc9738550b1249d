package dev.perflab.mail.mail;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.MailServiceTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The lab switch changes how the total is counted, never what it is. */
class CountersAgreeTest extends MailServiceTest {

	@Autowired
	JdbcClient jdbcClient;

	@Test
	void leftJoinAndNotExistsCountTheSameMails() {
		MailCounter fixed = new NotExistsCounter(jdbcClient);
		MailCounter baseline = new LeftJoinCounter(jdbcClient);
		for (long user = 1; user <= 20; user++) {
			Account account = new Account(user <= 10 ? 1 : 2, user, "x@y");
			assertThat(baseline.count(account, null)).isEqualTo(fixed.count(account, null)).isPositive();
			assertThat(baseline.count(account, 1L)).isEqualTo(fixed.count(account, 1L));
		}
	}
}
