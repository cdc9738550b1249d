package dev.perflab.gateway.web;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.perflab.gateway.GatewayProperties;
import dev.perflab.gateway.auth.EdgeAuthFilter;

/**
 * One structured line per request: method, path (receipt keys redacted, no query: {@link LoggedPath}), status,
 * duration, request id, verified user. Redirects answered
 * from the edge cache are sampled (1 in {@code perflab.gateway.edge-cache.log-every}) — they are counted exactly
 * in {@code perflab.gateway.edge.cache{result=hit}}; a line per hit would cost a quarter of their throughput.
 */
@Component
public class AccessLogFilter implements WebFilter, Ordered {

	private static final Logger log = LoggerFactory.getLogger("perflab.access");

	/** Set by the edge cache on requests it answered itself. */
	public static final String EDGE_HIT = AccessLogFilter.class.getName() + ".edgeHit";

	private final boolean enabled;

	private final long logEveryEdgeHit;

	private final java.util.concurrent.atomic.AtomicLong edgeHits = new java.util.concurrent.atomic.AtomicLong();

	AccessLogFilter(GatewayProperties properties) {
		this.enabled = properties.accessLog();
		this.logEveryEdgeHit = Math.max(1, properties.edgeCache().logEvery());
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (!enabled || !log.isInfoEnabled()) {
			return chain.filter(exchange);
		}
		long start = System.nanoTime();
		return chain.filter(exchange).doFinally(signal -> {
			if (exchange.getAttributes().containsKey(EDGE_HIT) && edgeHits.incrementAndGet() % logEveryEdgeHit != 0) {
				return;
			}
			HttpStatusCode status = exchange.getResponse().getStatusCode();
			if (WarmUp.running && status != null && !status.is5xxServerError()
					&& exchange.getAttributes().get(RequestIdFilter.ATTRIBUTE) instanceof String id
					&& id.startsWith(WarmUp.ID_PREFIX)) {
				return; // the warm-up's own requests before readiness: one summary line, not thousands
			}
			Object user = exchange.getAttributes().get(EdgeAuthFilter.USER_ATTRIBUTE);
			log.info("{} {} {} {}ms request_id={} user={}", exchange.getRequest().getMethod(),
					LoggedPath.of(exchange.getRequest().getPath().value()), status == null ? 0 : status.value(),
					(System.nanoTime() - start) / 1_000_000, exchange.getAttributes().get(RequestIdFilter.ATTRIBUTE),
					user == null ? "-" : user);
		});
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 1;
	}
}
