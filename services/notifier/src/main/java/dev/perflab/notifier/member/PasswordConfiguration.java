package dev.perflab.notifier.member;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;

import dev.perflab.notifier.NotifierProperties;

/**
 * Member passwords: Spring Security's BCrypt, never a hash of our own. A bean of its own so that what reaches it can be
 * counted: a sign-up over quota must be refused before it spends BCrypt's ~70-100 ms of a core.
 */
@Configuration(proxyBeanMethods = false)
class PasswordConfiguration {

	@Bean
	PasswordEncoder memberPasswordEncoder(NotifierProperties properties) {
		return new BCryptPasswordEncoder(properties.bcryptStrength());
	}
}
