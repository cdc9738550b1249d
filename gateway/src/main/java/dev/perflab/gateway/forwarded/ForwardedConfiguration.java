package dev.perflab.gateway.forwarded;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.perflab.gateway.GatewayProperties;

@Configuration(proxyBeanMethods = false)
class ForwardedConfiguration {

	@Bean
	ForwardedClientAddress forwardedClientAddress(GatewayProperties properties) {
		return new ForwardedClientAddress(new TrustedProxies(properties.trustedProxies()));
	}
}
