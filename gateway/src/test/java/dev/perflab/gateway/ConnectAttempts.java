package dev.perflab.gateway;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.config.HttpClientCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Counts the gateway's outgoing connection attempts per port. A refused connection never reaches a server, so
 * this is the only place a test can see whether the gateway tried again.
 */
@TestConfiguration(proxyBeanMethods = false)
class ConnectAttempts {

	private static final Map<Integer, AtomicInteger> ATTEMPTS = new ConcurrentHashMap<>();

	static int to(int port) {
		AtomicInteger n = ATTEMPTS.get(port);
		return n == null ? 0 : n.get();
	}

	@Bean
	HttpClientCustomizer countConnectAttempts() {
		return client -> client.doOnConnect(config -> {
			int port = config.uri() != null ? URI.create(config.uri()).getPort()
					: config.remoteAddress().get() instanceof InetSocketAddress address ? address.getPort() : -1;
			ATTEMPTS.computeIfAbsent(port, p -> new AtomicInteger()).incrementAndGet();
		});
	}
}
