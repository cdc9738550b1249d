package dev.perflab.mail.message;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

@Configuration(proxyBeanMethods = false)
class MailConfiguration {

	@Bean
	@ConditionalOnProperty(name = "perflab.mail.list-count", havingValue = "not-exists", matchIfMissing = true)
	MailCounter notExistsCounter(JdbcClient jdbc) {
		return new NotExistsCounter(jdbc);
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.mail.list-count", havingValue = "left-join")
	MailCounter leftJoinCounter(JdbcClient jdbc) {
		return new LeftJoinCounter(jdbc);
	}
}
