package dev.perflab.gateway.web;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * Reads only, and only what a pod coming or going produces, an I/O failure of the connection to the service: a
 * connect failure, a service name that did not resolve (cluster DNS while pods come and go), a connection closed
 * before any answer (a pod shutting down closes its keep-alive connections), a pooled connection found dead when
 * taken from the pool (a Service's pooled connections all lead to the pod that went away), a connection reset (a
 * pod killed mid-request). GET and HEAD are safe to ask again. At most {@value #RETRIES} more attempts, 50 ms then
 * 100 ms apart. A slow answer is never asked again: that would double the load on a service that is already late;
 * a write is never asked again.
 * <p>
 * This replaces Spring Cloud Gateway's {@code Retry} default filter, measured as the costliest piece of the plain
 * proxy hop (docs/gateway-performance.md): it wraps every request, reads and writes alike, in reactor-extra's
 * {@code retryWhen} companion (a Flux, a sink and a context per request) and, as a default filter, turns on
 * request-body caching on every route. Here a read that succeeds pays one {@code onErrorResume}; a write pays
 * nothing. It sits right before the {@link NettyRoutingFilter}, so a retry does not pass the rate limiter again.
 * <p>
 * The lab switch {@code perflab.gateway.read-retry}: {@code connection-failures} (this filter, the default) or
 * {@code none} (no filter: the scale-in proof's run without its mechanism, scripts/test/test-node.sh).
 */
@Component
@ConditionalOnProperty(name = "perflab.gateway.read-retry", havingValue = "connection-failures", matchIfMissing = true)
class ReadRetryFilter implements GlobalFilter, Ordered {

	private static final Logger log = LoggerFactory.getLogger(ReadRetryFilter.class);

	static final int RETRIES = 2;

	private static final Duration FIRST_BACKOFF = Duration.ofMillis(50);

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
		HttpMethod method = exchange.getRequest().getMethod();
		if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
			return chain.filter(exchange);
		}
		return attempt(exchange, chain, 0);
	}

	private Mono<Void> attempt(ServerWebExchange exchange, GatewayFilterChain chain, int retry) {
		return chain.filter(exchange)
			.onErrorResume(e -> retry < RETRIES && !exchange.getResponse().isCommitted() && unreachable(e), e -> {
				ServerWebExchangeUtils.reset(exchange);
				Duration backoff = FIRST_BACKOFF.multipliedBy(1L << retry);
				// rare (a pod coming or going), and the one place that tells where a read failed: a refused connect
				// (nothing reached the service) or a connection closed under it (the service had the request)
				log.info("{} {}: attempt {} failed ({}), asked again in {} ms request_id={}", exchange.getRequest().getMethod(),
						LoggedPath.of(exchange.getRequest().getPath().value()), retry + 1, cause(e), backoff.toMillis(),
						exchange.getAttributes().get(RequestIdFilter.ATTRIBUTE));
				return Mono.delay(backoff)
					.then(Mono.defer(() -> attempt(exchange, chain, retry + 1)));
			});
	}

	/**
	 * The service could not be reached or dropped the connection: an {@link IOException} anywhere in the cause chain
	 * (Reactor Netty's connect, pool and premature-close failures and the transports' resets all are), or Reactor
	 * Netty's {@link AbortedException} (a pooled connection the service closed while the request was being sent to
	 * it: "Connection has been closed BEFORE send operation", seen when a service stops), but not a socket timeout: a
	 * late answer is a 504, never retried.
	 */
	static boolean unreachable(Throwable e) {
		boolean io = false;
		for (Throwable t = e; t != null; t = t.getCause()) {
			if (t instanceof SocketTimeoutException) {
				return false;
			}
			io |= t instanceof IOException || t instanceof AbortedException;
		}
		return io;
	}

	/** The innermost cause, by type and message: what the transport said (a refused connect, a premature close). */
	static String cause(Throwable e) {
		Throwable root = e;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root.getClass().getSimpleName() + ": " + root.getMessage();
	}

	@Override
	public int getOrder() {
		// after the rate limiter and every route filter, before the routing filters (lowest precedence)
		return Ordered.LOWEST_PRECEDENCE - 10;
	}
}
