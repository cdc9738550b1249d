package dev.perflab.gateway.edge;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

import dev.perflab.gateway.auth.EdgeAuthFilter;

/**
 * {@code RevalidatedBodyCache} in a route's filters: the gateway keeps the last 200 body of each read of the route per
 * caller office (see {@link RevalidatedBodies}).
 * <ul>
 * <li>Within the freshness the service granted ({@code Surrogate-Control: max-age=N}, a header for the gateway alone,
 * never passed on) a read of the same office is answered from the kept body, after the edge's checks and the
 * caller's rate limit, without reaching the service.</li>
 * <li>After that, and always without such a grant, the read goes to the service with {@code If-None-Match}: a 304 for
 * the kept ETag is answered to the caller as the kept 200; anything else passes through as the service sent it (a new
 * version's 200 replaces the kept one, a 404 drops it).</li>
 * </ul>
 * The service keeps deciding who may read what and which version is current; the gateway only saves the body's
 * second hop, and within the grant the hop itself. For route's points that is 191 KB per read.
 * <p>
 * Only a caller's plain GET takes part: one that sends its own validators or asks for a range is the service's to
 * answer. Only a 200 with a strong ETag, no {@code no-store}, no cookie, and a {@code Vary} of at most
 * {@code Accept} and {@code Accept-Encoding} (both part of the key) is kept, whole and within
 * {@code perflab.gateway.body-cache.max-entry}. Routes that use it must scope what they serve by office at most (the
 * key holds the caller's office, not the user).
 * <p>
 * This filter decides, per read, between the kept body and the service, and makes the reads of one body ask the
 * service once; {@link RevalidatedBodyPolicy} says what takes part and what is kept, {@link RevalidatingResponse}
 * keeps and answers, {@link ServeFreshFilter} answers a fresh read after the route's rate limit.
 */
public class RevalidatedBodyCacheGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

	/**
	 * The longest a read waits for another read of the same body asking the service before it asks itself (the
	 * gateway's response timeout): a 200 is kept once it passed whole, at the pace of the asking read's caller.
	 */
	static final Duration WAIT = Duration.ofSeconds(10);

	private static final Runnable NOTHING = () -> {
	};

	private final @Nullable RevalidatedBodies bodies;

	/** @param bodies null when the cache is turned off: the filter then passes every request through */
	public RevalidatedBodyCacheGatewayFilterFactory(@Nullable RevalidatedBodies bodies) {
		super(Object.class);
		this.bodies = bodies;
	}

	@Override
	public String name() {
		return "RevalidatedBodyCache";
	}

	@Override
	public GatewayFilter apply(Object config) {
		// before the write filter, so the response it writes to is this one's decorator
		return new OrderedGatewayFilter((exchange, chain) -> {
			// the service's grant is for the gateway alone (read in writeWith, before the commit), whatever the read
			ServerHttpResponse original = exchange.getResponse();
			original.beforeCommit(
					() -> Mono.fromRunnable(() -> original.getHeaders().remove(RevalidatedBodyPolicy.SURROGATE_CONTROL)));
			if (bodies == null || !RevalidatedBodyPolicy.takesPart(exchange.getRequest())) {
				return chain.filter(exchange);
			}
			String key = RevalidatedBodyPolicy.key(exchange.getAttribute(EdgeAuthFilter.OFFICE_ATTRIBUTE),
					exchange.getRequest());
			RevalidatedBodies.Body kept = bodies.lookup(key);
			if (kept != null && kept.fresh(System.nanoTime())) {
				return serveFresh(exchange, chain, bodies, key, kept);
			}
			Sinks.One<Optional<RevalidatedBodies.Body>> mine = Sinks.one();
			Sinks.One<Optional<RevalidatedBodies.Body>> asking = bodies.ask(key, mine);
			if (asking != mine) {
				// another read of this body is asking the service for it, or whether the kept one is still current: its
				// answer (a 304, at once, or a whole 200, read in before anyone is answered), if it grants freshness, is
				// this one's
				return asking.asMono().timeout(WAIT, Mono.just(Optional.empty())).flatMap(answer -> {
					RevalidatedBodies.Body now = answer.orElse(null);
					return now != null && now.fresh(System.nanoTime()) ? serveFresh(exchange, chain, bodies, key, now)
							: forward(exchange, chain, bodies, key, bodies.lookup(key), NOTHING);
				});
			}
			// the waiting reads are told as soon as this one knows (a 304, a whole 200, anything else), at the latest
			// when it ends however it ends
			Runnable asked = () -> bodies.asked(key, mine);
			return forward(exchange, chain, bodies, key, kept, asked).doFinally(signal -> asked.run());
		}, NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1);
	}

	/** Answered by {@link ServeFreshFilter} once the route's own filters (the rate limit) let the read through. */
	private static Mono<Void> serveFresh(ServerWebExchange exchange, GatewayFilterChain chain, RevalidatedBodies bodies,
			String key, RevalidatedBodies.Body fresh) {
		exchange.getAttributes().put(ServeFreshFilter.FRESH, fresh);
		return chain.filter(exchange.mutate()
			.response(new RevalidatingResponse(exchange.getResponse(), bodies, key, fresh, NOTHING))
			.build());
	}

	/** To the service, conditionally when a body is kept. */
	private static Mono<Void> forward(ServerWebExchange exchange, GatewayFilterChain chain, RevalidatedBodies bodies,
			String key, RevalidatedBodies.@Nullable Body kept, Runnable asked) {
		ServerWebExchange forwarded = exchange.mutate()
			.request(kept == null ? exchange.getRequest()
					: exchange.getRequest().mutate().headers(h -> h.set(HttpHeaders.IF_NONE_MATCH, kept.etag())).build())
			.response(new RevalidatingResponse(exchange.getResponse(), bodies, key, kept, asked))
			.build();
		return chain.filter(forwarded);
	}

}
