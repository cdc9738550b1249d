package dev.perflab.route.points;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;

import dev.perflab.route.route.Routes;

/**
 * The encoded, gzipped points body per (route, version, format), bounded by its bytes. A route version never
 * changes, so an entry never goes stale. Under concurrent misses of one key exactly one reader runs the query and
 * encodes; the others wait for its bytes (1,000 readers of a cold route are one MySQL read, not 1,000). The query
 * writes into memory, so its connection is back in the pool after the rows are read, whatever the clients' speed.
 */
final class PointBodies {

	record Key(long routeId, int version, Format format) {
	}

	private final AsyncCache<Key, byte[]> cache;

	private final PointsFetch fetch;

	PointBodies(long maxBytes, PointsFetch fetch, MeterRegistry registry) {
		this.fetch = fetch;
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
				mine.complete(encode(route, format));
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

	private byte[] encode(Routes.Ref route, Format format) {
		// about a third of the JSON (1e-7 degree doubles compress poorly); sized for that to avoid regrowth
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(1024, route.pointCount() * 16));
		try (GzipStream gzip = new GzipStream(bytes, java.util.zip.Deflater.DEFAULT_COMPRESSION)) {
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
