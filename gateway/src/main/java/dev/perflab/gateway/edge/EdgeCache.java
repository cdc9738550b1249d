package dev.perflab.gateway.edge;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;

import dev.perflab.gateway.GatewayProperties;

/**
 * The bounded redirect cache at the edge and the rules that keep it honest:
 * <ul>
 * <li>an entry lives no longer than the max-age the shortener sent, counted from when the fetch started;</li>
 * <li>nothing is stored or served unless the invalidation subscription is live; losing it empties the cache;</li>
 * <li>a response whose fetch started before an invalidation arrived is not stored (it may predate a delete).</li>
 * </ul>
 */
public class EdgeCache {

	private final Cache<String, Redirect> entries;

	/** Every age here is read from it: a test drives expiry with its own ticker instead of sleeping. */
	private final Ticker ticker;

	private final AtomicLong invalidations = new AtomicLong();

	private volatile boolean live;

	private final long maxTtlNanos;

	private final ConcurrentHashMap<String, LongAdder> hits = new ConcurrentHashMap<>();

	private final io.micrometer.core.instrument.Counter hitCounter;

	private final io.micrometer.core.instrument.Counter missCounter;

	public EdgeCache(GatewayProperties.EdgeCache settings, MeterRegistry meters) {
		this(settings, meters, Ticker.systemTicker());
	}

	public EdgeCache(GatewayProperties.EdgeCache settings, MeterRegistry meters, Ticker ticker) {
		this.ticker = ticker;
		this.maxTtlNanos = settings.maxTtl().toNanos();
		this.entries = Caffeine.newBuilder().ticker(ticker).maximumSize(settings.maxEntries()).expireAfter(new Expiry<String, Redirect>() {
			@Override
			public long expireAfterCreate(String code, Redirect redirect, long now) {
				return Math.max(0, redirect.expiresAtNanos() - now);
			}

			@Override
			public long expireAfterUpdate(String code, Redirect redirect, long now, long current) {
				return Math.max(0, redirect.expiresAtNanos() - now);
			}

			@Override
			public long expireAfterRead(String code, Redirect redirect, long now, long current) {
				return current;
			}
		}).build();
		this.hitCounter = meters.counter("perflab.gateway.edge.cache", "result", "hit");
		this.missCounter = meters.counter("perflab.gateway.edge.cache", "result", "miss");
		meters.gauge("perflab.gateway.edge.cache.size", entries, c -> c.estimatedSize());
	}

	/** A live entry for the code, counting the hit; null when the caller must ask the shortener. */
	Redirect lookup(String code) {
		if (!live) {
			return null;
		}
		Redirect redirect = entries.getIfPresent(code);
		if (redirect == null || redirect.expiresAtNanos() - ticker.read() <= 0) {
			missCounter.increment();
			return null;
		}
		hitCounter.increment();
		hits.computeIfAbsent(code, c -> new LongAdder()).increment();
		return redirect;
	}

	/** Taken before a fetch starts; pass it to {@link #store}. */
	Ticket ticket() {
		return new Ticket(live, invalidations.get(), ticker.read());
	}

	void store(String code, int status, String location, long maxAgeSeconds, Ticket ticket) {
		if (maxAgeSeconds < 1 || !ticket.live() || !live) {
			return;
		}
		long ttl = Math.min(TimeUnit.SECONDS.toNanos(maxAgeSeconds), maxTtlNanos);
		Redirect redirect = new Redirect(status, location, ticket.startedNanos() + ttl);
		// checked under the entry's lock: an invalidation either happened before (nothing is stored) or its
		// removal of this code runs after the store
		entries.asMap().compute(code, (key, old) -> live && invalidations.get() == ticket.invalidations() ? redirect : old);
	}

	void invalidate(String code) {
		invalidations.incrementAndGet();
		entries.asMap().remove(code);
	}

	void subscribed() {
		live = true;
	}

	/** The invalidation feed is gone: forget everything, cache nothing until it is back. */
	void unsubscribed() {
		live = false;
		invalidations.incrementAndGet();
		entries.invalidateAll();
	}

	boolean isLive() {
		return live;
	}

	/** Hit counts since the last call, for the shortener's hit counter. */
	Map<String, Long> drainHits() {
		Map<String, Long> out = new java.util.HashMap<>();
		for (String code : hits.keySet()) {
			LongAdder adder = hits.remove(code);
			if (adder != null) {
				out.put(code, adder.sum());
			}
		}
		return out;
	}

	void restoreHits(Map<String, Long> batch) {
		batch.forEach((code, n) -> hits.computeIfAbsent(code, c -> new LongAdder()).add(n));
	}

	record Redirect(int status, String location, long expiresAtNanos) {
	}

	record Ticket(boolean live, long invalidations, long startedNanos) {
	}
}
