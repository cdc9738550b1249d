package dev.perflab.gateway.malformed;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class MalformedRequestConfiguration {

	@Bean
	EncodedSeparatorFilter encodedSeparatorFilter() {
		return new EncodedSeparatorFilter();
	}

	@Bean
	MalformedRequestProblems malformedRequestProblems() {
		return new MalformedRequestProblems();
	}
}
