package dev.perflab.mail.eml;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.perflab.mail.MailProperties;

@Configuration(proxyBeanMethods = false)
class EmlConfiguration {

	@Bean
	@ConditionalOnProperty(name = "perflab.mail.eml-read", havingValue = "streaming", matchIfMissing = true)
	EmlReader streamingEmlReader(EmlStore store, MailProperties properties) {
		return new StreamingEmlReader(store, properties.maxBodyChars());
	}

	@Bean
	@ConditionalOnProperty(name = "perflab.mail.eml-read", havingValue = "in-memory")
	EmlReader inMemoryEmlReader(EmlStore store) {
		return new InMemoryEmlReader(store);
	}
}
