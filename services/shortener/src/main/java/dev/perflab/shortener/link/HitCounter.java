package dev.perflab.shortener.link;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import jakarta.annotation.PreDestroy;

/**
 * Hit counts without a write per redirect: counted in memory, and every flush interval added to MongoDB in one
 * bulk of {@code $inc}. Redirects the gateway answers from its edge cache are counted there and handed over
 * through the Redis hash {@value #EDGE_HITS}, drained here atomically. A failed flush puts its counts back.
 */
@Component
class HitCounter {

	static final String EDGE_HITS = "perflab:shortener:edge-hits";

	private static final Logger log = LoggerFactory.getLogger(HitCounter.class);

	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> DRAIN = RedisScript.of(
			"local v = redis.call('hgetall', KEYS[1]); redis.call('del', KEYS[1]); return v", List.class);

	private final ConcurrentHashMap<String, LongAdder> pending = new ConcurrentHashMap<>();

	private final LinkStore store;

	private final StringRedisTemplate redis;

	HitCounter(LinkStore store, StringRedisTemplate redis) {
		this.store = store;
		this.redis = redis;
	}

	void hit(String code) {
		add(code, 1);
	}

	/**
	 * Under the map's lock for that code, as {@link #flush()}'s remove is: a hit lands in the adder a flush takes
	 * whole or in a new one, never in an adder already summed and dropped.
	 */
	private void add(String code, long n) {
		pending.compute(code, (c, adder) -> {
			LongAdder counts = adder == null ? new LongAdder() : adder;
			counts.add(n);
			return counts;
		});
	}

	long pending(String code) {
		LongAdder adder = pending.get(code);
		return adder == null ? 0 : adder.sum();
	}

	@Scheduled(fixedDelayString = "${perflab.shortener.hits.flush-interval:1s}")
	@PreDestroy
	void flush() {
		Map<String, Long> batch = new HashMap<>();
		for (String code : pending.keySet()) {
			LongAdder adder = pending.remove(code);
			if (adder != null) {
				batch.merge(code, adder.sum(), Long::sum);
			}
		}
		drainEdgeHits(batch);
		if (batch.isEmpty()) {
			return;
		}
		try {
			store.addHits(batch);
		}
		catch (RuntimeException e) {
			log.warn("hit flush failed, keeping {} counts for the next one: {}", batch.size(), e.toString());
			batch.forEach(this::add);
		}
	}

	private void drainEdgeHits(Map<String, Long> batch) {
		try {
			List<?> flat = redis.execute(DRAIN, List.of(EDGE_HITS));
			for (int i = 0; flat != null && i + 1 < flat.size(); i += 2) {
				batch.merge(String.valueOf(flat.get(i)), Long.parseLong(String.valueOf(flat.get(i + 1))), Long::sum);
			}
		}
		catch (RuntimeException e) {
			log.warn("could not drain edge hits: {}", e.toString());
		}
	}
}
