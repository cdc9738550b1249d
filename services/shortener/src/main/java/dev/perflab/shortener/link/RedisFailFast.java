package dev.perflab.shortener.link;

import io.lettuce.core.ClientOptions;

import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * While the connection to Redis is down, a command fails at once instead of waiting in Lettuce's queue for the
 * command timeout: a redirect then reads MongoDB straight away (the cache degrades to a miss, see
 * {@link RedirectCache}) and answers within its route's time, not after it.
 */
@Configuration(proxyBeanMethods = false)
class RedisFailFast {

	@Bean
	LettuceClientOptionsBuilderCustomizer rejectCommandsWhileDisconnected() {
		return options -> options.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
	}
}
