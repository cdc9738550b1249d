package dev.perflab.gateway.edge;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
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
 */
public class RevalidatedBodyCacheGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

	static final String HEADER = EdgeCacheFilter.HEADER;

	private static final Set<String> VARY_IN_KEY = Set.of("accept", "accept-encoding");

	private static final List<String> REPRESENTATION = List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.CONTENT_ENCODING,
			HttpHeaders.CONTENT_LANGUAGE, HttpHeaders.CACHE_CONTROL, HttpHeaders.VARY, HttpHeaders.LAST_MODIFIED,
			HttpHeaders.EXPIRES);

	private static final List<String> VALIDATORS = List.of(HttpHeaders.IF_NONE_MATCH, HttpHeaders.IF_MATCH,
			HttpHeaders.IF_MODIFIED_SINCE, HttpHeaders.IF_UNMODIFIED_SINCE, HttpHeaders.IF_RANGE, HttpHeaders.RANGE);

	/** The exchange attribute that carries a fresh kept body from this filter to {@link ServeFresh}. */
	static final String FRESH = RevalidatedBodyCacheGatewayFilterFactory.class.getName() + ".fresh";

	static final String SURROGATE_CONTROL = "Surrogate-Control";

	/**
	 * The longest a read waits for another read of the same body asking the service before it asks itself (the
	 * gateway's response timeout): a 200 is kept once it passed whole, at the pace of the asking read's caller.
	 */
	static final Duration WAIT = Duration.ofSeconds(10);

	private static final Runnable NOTHING = () -> {
	};

	/** Bytes per write of a kept body. */
	static final int CHUNK = 32 * 1024;

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
			original.beforeCommit(() -> Mono.fromRunnable(() -> original.getHeaders().remove(SURROGATE_CONTROL)));
			if (bodies == null || !takesPart(exchange.getRequest())) {
				return chain.filter(exchange);
			}
			String key = key(exchange.getAttribute(EdgeAuthFilter.OFFICE_ATTRIBUTE), exchange.getRequest());
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

	/** Answered by {@link ServeFresh} once the route's own filters (the rate limit) let the read through. */
	private static Mono<Void> serveFresh(ServerWebExchange exchange, GatewayFilterChain chain, RevalidatedBodies bodies,
			String key, RevalidatedBodies.Body fresh) {
		exchange.getAttributes().put(FRESH, fresh);
		return chain.filter(
				exchange.mutate().response(new Revalidating(exchange.getResponse(), bodies, key, fresh, NOTHING)).build());
	}

	/** To the service, conditionally when a body is kept. */
	private static Mono<Void> forward(ServerWebExchange exchange, GatewayFilterChain chain, RevalidatedBodies bodies,
			String key, RevalidatedBodies.@Nullable Body kept, Runnable asked) {
		ServerWebExchange forwarded = exchange.mutate()
			.request(kept == null ? exchange.getRequest()
					: exchange.getRequest().mutate().headers(h -> h.set(HttpHeaders.IF_NONE_MATCH, kept.etag())).build())
			.response(new Revalidating(exchange.getResponse(), bodies, key, kept, asked))
			.build();
		return chain.filter(forwarded);
	}

	static boolean takesPart(ServerHttpRequest request) {
		if (request.getMethod() != HttpMethod.GET) {
			return false;
		}
		HttpHeaders headers = request.getHeaders();
		for (String validator : VALIDATORS) {
			if (headers.containsHeader(validator)) {
				return false;
			}
		}
		return true;
	}

	static String key(@Nullable String office, ServerHttpRequest request) {
		HttpHeaders headers = request.getHeaders();
		String query = request.getURI().getRawQuery();
		return (office == null ? "-" : office) + '\n' + request.getURI().getRawPath() + '?' + (query == null ? "" : query)
				+ '\n' + String.join(",", headers.getOrEmpty(HttpHeaders.ACCEPT))
				+ '\n' + String.join(",", headers.getOrEmpty(HttpHeaders.ACCEPT_ENCODING));
	}

	/**
	 * Until when the service lets the gateway answer without asking (its Surrogate-Control max-age, read as the
	 * redirect cache reads a max-age), from now.
	 */
	static long freshUntil(HttpHeaders headers, long now) {
		long seconds = EdgeCacheFilter.maxAge(String.join(",", headers.getOrEmpty(SURROGATE_CONTROL)));
		return now + TimeUnit.SECONDS.toNanos(Math.min(seconds, 86_400));
	}

	/** A 200 the cache may keep, judged by its headers alone. */
	static boolean keepable(HttpHeaders headers) {
		String etag = headers.getETag();
		if (etag == null || etag.startsWith("W/") || headers.containsHeader(HttpHeaders.SET_COOKIE)) {
			return false;
		}
		String cacheControl = String.join(",", headers.getOrEmpty(HttpHeaders.CACHE_CONTROL)).toLowerCase(Locale.ROOT);
		if (cacheControl.contains("no-store")) {
			return false;
		}
		for (String vary : headers.getOrEmpty(HttpHeaders.VARY)) {
			for (String name : vary.split(",")) {
				if (!VARY_IN_KEY.contains(name.trim().toLowerCase(Locale.ROOT))) {
					return false;
				}
			}
		}
		return true;
	}

	private static final class Revalidating extends ServerHttpResponseDecorator {

		private final RevalidatedBodies bodies;

		private final String key;

		private final RevalidatedBodies.@Nullable Body kept;

		/** Tells the reads waiting for this one what it left kept. */
		private final Runnable asked;

		Revalidating(ServerHttpResponse delegate, RevalidatedBodies bodies, String key,
				RevalidatedBodies.@Nullable Body kept, Runnable asked) {
			super(delegate);
			this.bodies = bodies;
			this.key = key;
			this.kept = kept;
			this.asked = asked;
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			HttpStatusCode status = getStatusCode();
			HttpHeaders headers = getHeaders();
			long now = System.nanoTime();
			long freshUntil = freshUntil(headers, now);
			if (kept != null && status != null && status.value() == HttpStatus.NOT_MODIFIED.value()
					&& kept.etag().equals(headers.getETag())) {
				bodies.refresh(key, kept.freshUntil(freshUntil));
				asked.run();
				return Flux.from(body).doOnNext(DataBufferUtils::release).then(Mono.defer(() -> answer(kept, "revalidated")));
			}
			long length = headers.getContentLength();
			if (status != null && status.value() == HttpStatus.OK.value() && keepable(headers)
					&& length <= bodies.maxEntryBytes()) {
				if (length > 0) {
					// read in whole at the service's pace, kept, then answered like any kept body: the reads waiting
					// for this one are told when it arrived, not when this read's caller has taken it all
					return DataBufferUtils.join(body, (int) length).flatMap(whole -> {
						RevalidatedBodies.Body arrived = arrived(whole, headers, freshUntil);
						asked.run();
						return arrived != null ? answer(arrived, "miss")
								// as a connection closed early is answered: 503 upstream-unavailable, Retry-After
								: Mono.error(new EOFException("the service's answer ended before its Content-Length"));
					});
				}
				// no length: kept as it passes, at the pace of this read's caller, which the waiting reads do not wait for
				asked.run();
				headers.set(HEADER, "miss");
				return super.writeWith(keeping(body, headers, freshUntil));
			}
			if (status != null && (status.value() == HttpStatus.NOT_FOUND.value()
					|| status.value() == HttpStatus.GONE.value())) {
				bodies.forget(key);
			}
			asked.run();
			bodies.countPassed();
			return super.writeWith(body);
		}

		/** A whole 200 of the service, kept; null when it is shorter than it said (never answered as whole). */
		private RevalidatedBodies.@Nullable Body arrived(DataBuffer whole, HttpHeaders headers, long freshUntil) {
			byte[] bytes = new byte[whole.readableByteCount()];
			try {
				whole.read(bytes);
			}
			finally {
				DataBufferUtils.release(whole);
			}
			if (bytes.length != headers.getContentLength()) {
				bodies.countPassed();
				return null;
			}
			RevalidatedBodies.Body arrived = new RevalidatedBodies.Body(headers.getETag(), representation(headers), bytes,
					freshUntil);
			bodies.store(key, arrived);
			return arrived;
		}

		private static List<String[]> representation(HttpHeaders headers) {
			List<String[]> representation = new ArrayList<>();
			for (String name : REPRESENTATION) {
				for (String value : headers.getOrEmpty(name)) {
					representation.add(new String[] { name, value });
				}
			}
			return List.copyOf(representation);
		}

		/**
		 * The kept body as this read's 200: {@code hit} without asking the service, {@code revalidated} after a 304,
		 * {@code miss} just read in from the service.
		 */
		Mono<Void> answer(RevalidatedBodies.Body body, String how) {
			setStatusCode(HttpStatus.OK);
			HttpHeaders headers = getHeaders();
			for (String name : REPRESENTATION) {
				headers.remove(name);
			}
			headers.remove(HttpHeaders.TRANSFER_ENCODING);
			for (String[] header : body.headers()) {
				headers.add(header[0], header[1]);
			}
			headers.setETag(body.etag());
			headers.setContentLength(body.bytes().length);
			headers.set(HEADER, how);
			if (how.equals("hit")) {
				bodies.countHit();
			}
			else if (how.equals("revalidated")) {
				bodies.countRevalidated();
			}
			return getDelegate().writeWith(chunks(body.bytes()));
		}

		/**
		 * The kept bytes in slices, written as the connection takes them: one 191 KB buffer would be copied whole into
		 * direct memory for the socket, per reader, and a thousand slow readers would hold that much direct memory.
		 */
		private Flux<DataBuffer> chunks(byte[] bytes) {
			int chunks = Math.max(1, (bytes.length + CHUNK - 1) / CHUNK);
			return Flux.range(0, chunks).map(i -> bufferFactory()
				.wrap(ByteBuffer.wrap(bytes, i * CHUNK, Math.min(CHUNK, bytes.length - i * CHUNK))));
		}

		/** The body as the service sends it, copied aside as it passes and kept once it arrived whole. */
		private Flux<? extends DataBuffer> keeping(Publisher<? extends DataBuffer> body, HttpHeaders headers,
				long freshUntil) {
			String etag = headers.getETag();
			List<String[]> representation = representation(headers);
			long expected = headers.getContentLength();
			long limit = bodies.maxEntryBytes();
			ByteArrayOutputStream copy = new ByteArrayOutputStream(
					(int) Math.min(limit, expected > 0 ? expected : 8192));
			boolean[] tooLarge = { false };
			return Flux.from(body).doOnNext(buffer -> {
				int n = buffer.readableByteCount();
				if (tooLarge[0] || copy.size() + (long) n > limit) {
					tooLarge[0] = true;
					return;
				}
				byte[] bytes = new byte[n];
				buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(bytes), 0, n);
				copy.write(bytes, 0, n);
			}).doOnComplete(() -> {
				if (!tooLarge[0] && etag != null && (expected < 0 || expected == copy.size())) {
					bodies.store(key,
							new RevalidatedBodies.Body(etag, representation, copy.toByteArray(), freshUntil));
				}
				else {
					bodies.countPassed();
				}
				asked.run();
			});
		}
	}

	/**
	 * Answers a read the route filter found fresh, once every filter before the routing (the edge's checks, the route's
	 * rate limit) let it through; the service is not asked.
	 */
	public static final class ServeFresh implements GlobalFilter, Ordered {

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
			RevalidatedBodies.Body fresh = exchange.getAttribute(FRESH);
			if (fresh != null && exchange.getResponse() instanceof Revalidating response) {
				return response.answer(fresh, "hit");
			}
			return chain.filter(exchange);
		}

		@Override
		public int getOrder() {
			// after the route's filters, right before the read retry and the routing filters
			return Ordered.LOWEST_PRECEDENCE - 20;
		}
	}
}
