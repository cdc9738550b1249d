package dev.perflab.mail.send;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

@Configuration(proxyBeanMethods = false)
class HandoffConfiguration {

	@Bean
	@ConditionalOnProperty(name = "perflab.mail.send-handoff", havingValue = "outbox", matchIfMissing = true)
	SendHandoff outboxHandoff(TransactionTemplate tx, SentMails mails, OutboxRelay relay, RecipientQuota quota,
			StorageQuota storage) {
		return new OutboxHandoff(tx, mails, relay, quota, storage);
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.mail.send-handoff", havingValue = "nested-requires-new")
	SendHandoff nestedRequiresNewHandoff(PlatformTransactionManager transactions, SentMails mails, OutboxRelay relay,
			RecipientQuota quota, StorageQuota storage) {
		return new NestedRequiresNewHandoff(transactions, mails, relay, quota, storage);
	}
}
