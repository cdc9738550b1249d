package dev.perflab.gateway.web;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.stereotype.Component;

/**
 * Readiness only when warm. Spring Boot turns readiness to ACCEPTING_TRAFFIC after the application runners
 * returned, and the server already listens by then; so this runner sends the gateway's own hot path requests over
 * loopback before the first client does: the connection pool to every service is opened, the classes of the proxy
 * path are loaded and its first tiers are compiled. Measured right after a start (docs/gateway-performance.md): the
 * seed-004 mix at 200 iterations/s failed creates and answered p95 in hundreds of ms while the JVM was cold.
 * <p>
 * It never blocks the start for long ({@code time-limit}) and never fails it: a service that is down when the
 * gateway starts is the readiness of that service, not of the gateway.
 */
@Component
class WarmUp implements ApplicationRunner {

	private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

	/** Request ids of warm-up requests start with this; their access lines are not written while it runs. */
	static final String ID_PREFIX = "warm-up-";

	static volatile boolean running;

	/** Linux answers on all of 127.0.0.0/8; elsewhere the warm-up's requests fail and it ends early. */
	private static final String SOURCE_ADDRESS = "127.0.0.2";

	private final Settings settings;

	private final WebServerApplicationContext context;

	private final RouteLocator routes;

	private final HttpClient gatewayClient;

	WarmUp(Settings settings, WebServerApplicationContext context, RouteLocator routes, HttpClient gatewayClient) {
		this.settings = settings;
		this.context = context;
		this.routes = routes;
		this.gatewayClient = gatewayClient;
	}

	@Override
	public void run(ApplicationArguments args) {
		if (settings.requests() <= 0) {
			return;
		}
		long start = System.nanoTime();
		running = true;
		try {
			// one request to each service through the gateway's own client: its pool holds a connection to each. A
			// service that accepts and never answers is given up after serviceTimeout, not after the whole time limit
			List<String> services = routes.getRoutes().map(r -> r.getUri().toString()).distinct().collectList()
				.block(settings.timeLimit());
			Flux.fromIterable(services == null ? List.of() : services)
				.flatMap(uri -> gatewayClient.get().uri(uri + "/").responseSingle((r, body) -> body.then(Mono.just(1)))
					.timeout(settings.serviceTimeout())
					.onErrorReturn(0))
				.then().block(settings.timeLimit());
			// the hot paths through the gateway itself, on loopback: routing, filters, the client, the answer. From a
			// loopback address of its own, so the per-IP limit of the public routes charges a bucket no client shares
			// (a local client or test on 127.0.0.1 right after the start finds its bucket full)
			HttpClient self = HttpClient.create()
				.bindAddress(() -> new InetSocketAddress(SOURCE_ADDRESS, 0))
				.baseUrl("http://127.0.0.1:" + context.getWebServer().getPort());
			AtomicInteger sent = new AtomicInteger();
			AtomicInteger answered = new AtomicInteger();
			Flux.range(0, settings.requests())
				.flatMap(i -> {
					String path = settings.paths().get(i % settings.paths().size());
					sent.incrementAndGet();
					return self.headers(h -> h.set(RequestIdFilter.HEADER, ID_PREFIX + i))
						.get().uri(path)
						.responseSingle((r, body) -> body.then(Mono.fromRunnable(answered::incrementAndGet)))
						.onErrorResume(e -> Mono.empty());
				}, settings.concurrency())
				.take(Duration.ofNanos(settings.timeLimit().toNanos() - (System.nanoTime() - start)))
				.then().block(settings.timeLimit());
			log.info("warm-up: {} services, {} of {} requests answered in {} ms", services == null ? 0 : services.size(),
					answered.get(), sent.get(), (System.nanoTime() - start) / 1_000_000);
		}
		catch (RuntimeException e) {
			log.warn("warm-up cut short after {} ms: {}", (System.nanoTime() - start) / 1_000_000, e.toString());
		}
		finally {
			running = false;
		}
	}

	/**
	 * @param requests requests sent through the gateway itself before readiness (0: no warm-up)
	 * @param concurrency requests in flight at once
	 * @param timeLimit the longest the warm-up may hold readiness back
	 * @param serviceTimeout the longest the first request to one service may take (a hung service is its own
	 * readiness, not the gateway's)
	 * @param paths paths asked in turn: an unknown redirect code (the proxy path to the shortener and its 404) and an
	 * API read without a token (the edge's refusal)
	 */
	@ConfigurationProperties("perflab.gateway.warm-up")
	record Settings(@DefaultValue("3000") int requests, @DefaultValue("16") int concurrency,
			@DefaultValue("20s") Duration timeLimit, @DefaultValue("2s") Duration serviceTimeout,
			@DefaultValue({ "/s/perflab-warm-up", "/v1/short-links/perflab-warm-up" }) List<String> paths) {
	}
}
