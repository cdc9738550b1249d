package dev.perflab.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class GatewayApplication {

	/**
	 * Reactor Netty's accept threads. By default (-1) the listening socket shares an event loop with the connections'
	 * I/O, and under load it accepted a few connections a second: 1,000 readers connecting at once left 701 of them
	 * in the kernel's accept queue, their requests unread for up to 20 s while the gateway served the rest
	 * (docs/gateway-performance.md). One thread of its own accepts them as they come. Set before Reactor Netty reads
	 * it; {@code -Dreactor.netty.ioSelectCount=} on the command line still decides.
	 */
	static final String ACCEPT_THREADS = "reactor.netty.ioSelectCount";

	public static void main(String[] args) {
		if (System.getProperty(ACCEPT_THREADS) == null) {
			System.setProperty(ACCEPT_THREADS, "1");
		}
		SpringApplication.run(GatewayApplication.class, args);
	}
}
