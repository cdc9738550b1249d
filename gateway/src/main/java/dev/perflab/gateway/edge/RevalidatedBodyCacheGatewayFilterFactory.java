package dev.perflab.gateway.edge;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
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

/**
 * {@code RevalidatedBodyCache} in a route's filters: the gateway keeps the last 200 body of each read of the route
 * (see {@link RevalidatedBodies}) and asks the service again with {@code If-None-Match} on every later read. A 304
 * for the kept ETag is answered to the caller as the kept 200; anything else passes through as the service sent it
 * (a new version's 200 replaces the kept one, a 404 drops it). The service still authorizes and versions every
 * read: a caller of another office gets the service's 404 whatever is kept, and a re-dispatched route is served new
 * at once. What it saves is the body on the second hop: for route's points, 191 KB per read between the service and
 * the gateway become a 304 of a few hundred bytes.
 * <p>
 * Only a caller's plain GET takes part: one that sends its own validators or asks for a range is the service's to
 * answer. Only a 200 with a strong ETag, no {@code no-store}, no cookie, and a {@code Vary} of at most
 * {@code Accept} and {@code Accept-Encoding} (both part of the key) is kept, whole and within
 * {@code perflab.gateway.body-cache.max-entry}.
 */
public class RevalidatedBodyCacheGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

	static final String HEADER = EdgeCacheFilter.HEADER;

	private static final Set<String> VARY_IN_KEY = Set.of("accept", "accept-encoding");

	private static final List<String> REPRESENTATION = List.of(HttpHeaders.CONTENT_TYPE, HttpHeaders.CONTENT_ENCODING,
			HttpHeaders.CONTENT_LANGUAGE, HttpHeaders.CACHE_CONTROL, HttpHeaders.VARY, HttpHeaders.LAST_MODIFIED,
			HttpHeaders.EXPIRES);

	private static final List<String> VALIDATORS = List.of(HttpHeaders.IF_NONE_MATCH, HttpHeaders.IF_MATCH,
			HttpHeaders.IF_MODIFIED_SINCE, HttpHeaders.IF_UNMODIFIED_SINCE, HttpHeaders.IF_RANGE, HttpHeaders.RANGE);

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
			if (bodies == null || !takesPart(exchange.getRequest())) {
				return chain.filter(exchange);
			}
			String key = key(exchange.getRequest());
			RevalidatedBodies.Body kept = bodies.lookup(key);
			ServerWebExchange forwarded = exchange.mutate()
				.request(kept == null ? exchange.getRequest()
						: exchange.getRequest().mutate().headers(h -> h.set(HttpHeaders.IF_NONE_MATCH, kept.etag())).build())
				.response(new Revalidating(exchange.getResponse(), bodies, key, kept))
				.build();
			return chain.filter(forwarded);
		}, NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1);
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

	static String key(ServerHttpRequest request) {
		HttpHeaders headers = request.getHeaders();
		return request.getURI().getRawPath() + '?' + (request.getURI().getRawQuery() == null ? "" : request.getURI().getRawQuery())
				+ '\n' + String.join(",", headers.getOrEmpty(HttpHeaders.ACCEPT))
				+ '\n' + String.join(",", headers.getOrEmpty(HttpHeaders.ACCEPT_ENCODING));
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
		long length = headers.getContentLength();
		return length < 0 || length <= Integer.MAX_VALUE;
	}

	private static final class Revalidating extends ServerHttpResponseDecorator {

		private final RevalidatedBodies bodies;

		private final String key;

		private final RevalidatedBodies.@Nullable Body kept;

		Revalidating(ServerHttpResponse delegate, RevalidatedBodies bodies, String key,
				RevalidatedBodies.@Nullable Body kept) {
			super(delegate);
			this.bodies = bodies;
			this.key = key;
			this.kept = kept;
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			HttpStatusCode status = getStatusCode();
			HttpHeaders headers = getHeaders();
			if (kept != null && status != null && status.value() == HttpStatus.NOT_MODIFIED.value()
					&& kept.etag().equals(headers.getETag())) {
				return Flux.from(body).doOnNext(DataBufferUtils::release).then(Mono.defer(() -> answerKept(kept)));
			}
			if (status != null && status.value() == HttpStatus.OK.value() && keepable(headers)
					&& headers.getContentLength() <= bodies.maxEntryBytes()) {
				headers.set(HEADER, "miss");
				return super.writeWith(keeping(body, headers));
			}
			if (status != null && (status.value() == HttpStatus.NOT_FOUND.value()
					|| status.value() == HttpStatus.GONE.value())) {
				bodies.forget(key);
			}
			bodies.countPassed();
			return super.writeWith(body);
		}

		private Mono<Void> answerKept(RevalidatedBodies.Body body) {
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
			headers.set(HEADER, "revalidated");
			bodies.countRevalidated();
			return super.writeWith(Mono.fromSupplier(() -> bufferFactory().wrap(body.bytes())));
		}

		/** The body as the service sends it, copied aside as it passes and kept once it arrived whole. */
		private Flux<? extends DataBuffer> keeping(Publisher<? extends DataBuffer> body, HttpHeaders headers) {
			String etag = headers.getETag();
			List<String[]> representation = new ArrayList<>();
			for (String name : REPRESENTATION) {
				for (String value : headers.getOrEmpty(name)) {
					representation.add(new String[] { name, value });
				}
			}
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
					bodies.store(key, new RevalidatedBodies.Body(etag, List.copyOf(representation), copy.toByteArray()));
				}
				else {
					bodies.countPassed();
				}
			});
		}
	}
}
