package dev.perflab.gateway.edge;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * The response of a read that takes part in the revalidated body cache
 * ({@link RevalidatedBodyCacheGatewayFilterFactory}): a 304 for the kept ETag is answered as the kept 200, a keepable 200 is kept (read in whole when its length is known,
 * copied aside as it passes otherwise), a 404 or 410 drops the kept body, anything else passes through.
 */
final class RevalidatingResponse extends ServerHttpResponseDecorator {

	/** Bytes per write of a kept body. */
	static final int CHUNK = 32 * 1024;

	private final RevalidatedBodies bodies;

	private final String key;

	private final RevalidatedBodies.@Nullable Body kept;

	/** Tells the reads waiting for this one what it left kept. */
	private final Runnable asked;

	RevalidatingResponse(ServerHttpResponse delegate, RevalidatedBodies bodies, String key,
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
		long freshUntil = RevalidatedBodyPolicy.freshUntil(headers, now);
		if (kept != null && status != null && status.value() == HttpStatus.NOT_MODIFIED.value()
				&& kept.etag().equals(headers.getETag())) {
			bodies.refresh(key, kept.freshUntil(freshUntil));
			asked.run();
			return Flux.from(body).doOnNext(DataBufferUtils::release).then(Mono.defer(() -> answer(kept, "revalidated")));
		}
		long length = headers.getContentLength();
		if (status != null && status.value() == HttpStatus.OK.value() && RevalidatedBodyPolicy.keepable(headers)
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
			headers.set(EdgeCacheFilter.HEADER, "miss");
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
		RevalidatedBodies.Body arrived = new RevalidatedBodies.Body(headers.getETag(),
				RevalidatedBodyPolicy.representation(headers), bytes, freshUntil);
		bodies.store(key, arrived);
		return arrived;
	}

	/**
	 * The kept body as this read's 200: {@code hit} without asking the service, {@code revalidated} after a 304,
	 * {@code miss} just read in from the service.
	 */
	Mono<Void> answer(RevalidatedBodies.Body body, String how) {
		setStatusCode(HttpStatus.OK);
		HttpHeaders headers = getHeaders();
		for (String name : RevalidatedBodyPolicy.REPRESENTATION) {
			headers.remove(name);
		}
		headers.remove(HttpHeaders.TRANSFER_ENCODING);
		for (String[] header : body.headers()) {
			headers.add(header[0], header[1]);
		}
		headers.setETag(body.etag());
		headers.setContentLength(body.bytes().length);
		headers.set(EdgeCacheFilter.HEADER, how);
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
		List<String[]> representation = RevalidatedBodyPolicy.representation(headers);
		long expected = headers.getContentLength();
		long limit = bodies.maxEntryBytes();
		ByteArrayOutputStream copy = new ByteArrayOutputStream((int) Math.min(limit, expected > 0 ? expected : 8192));
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
				bodies.store(key, new RevalidatedBodies.Body(etag, representation, copy.toByteArray(), freshUntil));
			}
			else {
				bodies.countPassed();
			}
			asked.run();
		});
	}

}
