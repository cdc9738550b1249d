package dev.perflab.gateway.edge;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Sinks;

import dev.perflab.gateway.GatewayProperties;

/**
 * Response bodies the gateway keeps to answer a read itself: an entry is the last 200 a service sent for one
 * request (the caller's office, path, query and the representation headers), with its strong ETag. Within the
 * freshness the service granted it ({@code Surrogate-Control: max-age}) it answers callers of that office alone;
 * after that, and always when none was granted, the read goes to the service conditionally and only a 304 for exactly
 * that ETag lets the gateway send the kept bytes. The service therefore decides who may read what (per office) and
 * how long a version may be served without asking it. Bounded by bytes (least recently used goes first).
 * <p>
 * One read of a kept body at a time asks the service whether it is still current: reads of the same key that arrive
 * while it does wait for its answer and are answered from what it left kept, if the service granted freshness, or ask
 * for themselves if not. A thousand readers arriving at an expired entry cost the service one request, not a
 * thousand. The same holds for a body not kept yet: its first read asks, and reads it in whole (at the service's
 * pace, not its caller's) before it answers anyone; the reads that arrived meanwhile are answered from it.
 */
public class RevalidatedBodies {

	/**
	 * What a 304 from the service stands for: the representation headers and bytes of the 200 it replaces.
	 * @param freshUntil {@link System#nanoTime()} until which the gateway may answer it without asking the service
	 * (the service's {@code Surrogate-Control: max-age}); without one, every read is revalidated
	 */
	public record Body(String etag, List<String[]> headers, byte[] bytes, long freshUntil) {

		boolean fresh(long now) {
			return now - freshUntil < 0;
		}

		Body freshUntil(long until) {
			return new Body(etag, headers, bytes, until);
		}
	}

	private final Cache<String, Body> entries;

	private final long maxEntryBytes;

	private final Counter hit;

	private final Counter revalidated;

	private final Counter stored;

	private final Counter passed;

	private final Counter waited;

	/** The read of each key that is asking the service right now, and what the reads waiting for it are told. */
	private final ConcurrentHashMap<String, Sinks.One<Optional<Body>>> asking = new ConcurrentHashMap<>();

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
		this.hit = Counter.builder(name).description(description).tag("result", "hit").register(meters);
		this.revalidated = Counter.builder(name).description(description).tag("result", "revalidated").register(meters);
		this.stored = Counter.builder(name).description(description).tag("result", "stored").register(meters);
		this.passed = Counter.builder(name).description(description).tag("result", "passed").register(meters);
		this.waited = Counter.builder("perflab.gateway.body.cache.waits")
			.description("reads that waited for another read of the same body asking the service, instead of asking")
			.register(meters);
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

	/** The same body, found current again by the service (a 304), with the freshness that answer gave it. */
	void refresh(String key, Body body) {
		entries.put(key, body);
	}

	/**
	 * @return {@code mine} when the caller is now the read asking the service for {@code key} (it then calls
	 * {@link #asked}), else the answer of the read that already is
	 */
	Sinks.One<Optional<Body>> ask(String key, Sinks.One<Optional<Body>> mine) {
		Sinks.One<Optional<Body>> theirs = asking.putIfAbsent(key, mine);
		if (theirs == null) {
			return mine;
		}
		waited.increment();
		return theirs;
	}

	/** The asking read is done, however it ended: the reads waiting for it are told what it left kept. */
	void asked(String key, Sinks.One<Optional<Body>> mine) {
		asking.remove(key, mine);
		mine.tryEmitValue(Optional.ofNullable(entries.getIfPresent(key)));
	}

	void forget(String key) {
		entries.invalidate(key);
	}

	void countHit() {
		hit.increment();
	}

	void countRevalidated() {
		revalidated.increment();
	}

	void countPassed() {
		passed.increment();
	}
}
