package dev.perflab.route.points;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import dev.perflab.platform.ProblemException;
import dev.perflab.route.dispatch.Routes;

/**
 * The encoded, gzipped points body per (route, version, format), bounded by its bytes. A route version never
 * changes, so an entry never goes stale. Under concurrent misses of one key exactly one reader runs the query and
 * encodes; the others wait for its bytes (1,000 readers of a cold route are one MySQL read, not 1,000). The query
 * writes into memory, so its connection is back in the pool after the rows are read, whatever the clients' speed.
 * <p>
 * A fill is CPU work (decoding rows, writing JSON, deflating) done while holding a pool connection. At most
 * {@code fills} run at once; the others wait their turn here, first come first served, not in the pool's queue: 100
 * cold routes read at once were 100 fills sharing two cores, each holding a connection for all of it, and those
 * queued behind them in the pool gave up after its 5 s timeout (503). A fill that finds no turn within
 * {@code fillWait} is refused as overload (503 with Retry-After), it and the readers waiting for its body.
 */
final class PointBodies {

	/**
	 * The deflate level of a kept body. On a 20k-point route's 964 KB of JSON (java.util.zip, warm): level 5 gives the
	 * default level 6's size (191,295 against 191,291 bytes) in 22 ms instead of 35; level 4 is 6% larger, level 1
	 * 19% larger in 7 ms. A fill was 65 ms of CPU at level 6, a third of it deflating.
	 */
	static final int CACHED_LEVEL = 5;

	record Key(long routeId, int version, Format format) {
	}

	private final AsyncCache<Key, byte[]> cache;

	private final PointsFetch fetch;

	private final Semaphore fills;

	private final long fillWaitNanos;

	PointBodies(long maxBytes, int fills, Duration fillWait, PointsFetch fetch, MeterRegistry registry) {
		this.fetch = fetch;
		this.fills = new Semaphore(fills, true);
		this.fillWaitNanos = fillWait.toNanos();
		this.cache = Caffeine.newBuilder()
			.maximumWeight(maxBytes)
			.<Key, byte[]>weigher((key, body) -> body.length)
			.recordStats()
			.buildAsync();
		CaffeineCacheMetrics.monitor(registry, cache, "route.points.body");
	}

	/** The gzipped body, from the cache or read once by this caller. */
	byte[] gzipped(Routes.Ref route, Format format) {
		CompletableFuture<byte[]> mine = new CompletableFuture<>();
		CompletableFuture<byte[]> body = cache.get(new Key(route.id(), route.version(), format), (key, executor) -> mine);
		if (body == mine) {
			try {
				mine.complete(fill(route, format));
			}
			catch (RuntimeException | Error e) {
				// a failed read is not remembered: the next reader tries again
				mine.completeExceptionally(e);
			}
		}
		try {
			return body.join();
		}
		catch (CompletionException e) {
			throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
		}
	}

	/** Whether a body could start being read now. */
	boolean hasTurnFree() {
		return fills.availablePermits() > 0;
	}

	private byte[] fill(Routes.Ref route, Format format) {
		try {
			if (!fills.tryAcquire(fillWaitNanos, TimeUnit.NANOSECONDS)) {
				ProblemException overloaded = new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, "overloaded",
						"The service is saturated (routes waiting to be read); retry shortly");
				overloaded.getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
				throw overloaded;
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted waiting to read route " + route.id(), e);
		}
		try {
			return encode(route, format);
		}
		finally {
			fills.release();
		}
	}

	private byte[] encode(Routes.Ref route, Format format) {
		// about a fifth of the JSON (1e-7 degree doubles compress poorly); sized for that to avoid regrowth
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, route.pointCount() * 16));
		try (GzipStream gzip = new GzipStream(bytes, CACHED_LEVEL)) {
			PointSink sink = format.sink(gzip);
			fetch.points(route.id(), sink);
			sink.finish();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return bytes.toByteArray();
	}
}
