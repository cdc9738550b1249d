package dev.perflab.shortener.link;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How long a request waits for MongoDB when it is down or unreachable: the driver's defaults (30 s to select a
 * server, no read timeout) would hold a request and its thread for half a minute; with these, a create or an uncached
 * redirect answers 503 store-unavailable within about a second (below the gateway's 2 s for a redirect and 5 s for the API)
 * and the service recovers by itself when MongoDB is back.
 * @param serverSelection how long to wait for a reachable server
 * @param connect connect timeout of one socket
 * @param read how long one operation may wait for its answer
 */
@ConfigurationProperties("perflab.shortener.mongo")
public record MongoTimeouts(@DefaultValue("1s") Duration serverSelection, @DefaultValue("1s") Duration connect,
		@DefaultValue("3s") Duration read) {

	@Configuration(proxyBeanMethods = false)
	static class Customizer {

		@Bean
		MongoClientSettingsBuilderCustomizer mongoTimeouts(MongoTimeouts timeouts) {
			return settings -> settings
				.applyToClusterSettings(
						cluster -> cluster.serverSelectionTimeout(timeouts.serverSelection().toMillis(), TimeUnit.MILLISECONDS))
				.applyToSocketSettings(socket -> socket.connectTimeout(timeouts.connect().toMillis(), TimeUnit.MILLISECONDS)
					.readTimeout(timeouts.read().toMillis(), TimeUnit.MILLISECONDS));
		}
	}
}
