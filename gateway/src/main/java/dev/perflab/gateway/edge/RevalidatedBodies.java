package dev.perflab.gateway.edge;

import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.jspecify.annotations.Nullable;

import dev.perflab.gateway.GatewayProperties;

/**
 * Response bodies the gateway keeps to answer a revalidated read itself: an entry is the last 200 a service sent
 * for one request (path, query and the representation headers), with its strong ETag. It is never served on its own
 * authority: every read still goes to the service, conditionally, and only a 304 for exactly that ETag lets the
 * gateway send the kept bytes. The service therefore still decides who may read what and whether the bytes are
 * current; what the entry saves is carrying the body over the second hop. Bounded by bytes (least recently used
 * goes first).
 */
public class RevalidatedBodies {

	/** What a 304 from the service stands for: the representation headers and bytes of the 200 it replaces. */
	public record Body(String etag, List<String[]> headers, byte[] bytes) {
	}

	private final Cache<String, Body> entries;

	private final long maxEntryBytes;

	private final Counter revalidated;

	private final Counter stored;

	private final Counter passed;

	public RevalidatedBodies(GatewayProperties.BodyCache settings, MeterRegistry meters) {
		this.maxEntryBytes = Math.min(Integer.MAX_VALUE - 8, settings.maxEntry().toBytes());
		this.entries = Caffeine.newBuilder()
			.maximumWeight(settings.maxSize().toBytes())
			.<String, Body>weigher((key, body) -> body.bytes().length + key.length())
			.recordStats()
			.build();
		CaffeineCacheMetrics.monitor(meters, entries, "gateway.body");
		String name = "perflab.gateway.body.cache";
		String description = "reads of a route with the revalidated body cache, by what the gateway did";
		this.revalidated = Counter.builder(name).description(description).tag("result", "revalidated").register(meters);
		this.stored = Counter.builder(name).description(description).tag("result", "stored").register(meters);
		this.passed = Counter.builder(name).description(description).tag("result", "passed").register(meters);
	}

	@Nullable Body lookup(String key) {
		return entries.getIfPresent(key);
	}

	long maxEntryBytes() {
		return maxEntryBytes;
	}

	void store(String key, Body body) {
		entries.put(key, body);
		stored.increment();
	}

	void forget(String key) {
		entries.invalidate(key);
	}

	void countRevalidated() {
		revalidated.increment();
	}

	void countPassed() {
		passed.increment();
	}
}
