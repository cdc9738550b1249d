package dev.perflab.shortener.link;

import java.time.Duration;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

import dev.perflab.shortener.ShortenerProperties;

/**
 * Tells every gateway to drop a code from its edge cache and waits until each one that received the message has
 * acknowledged it (INCR of a per-delete key). If an acknowledgement is missing, it waits out the longest time a
 * gateway may cache a redirect instead: either way, once a delete returns no gateway still serves the link.
 */
@Component
class EdgeInvalidations {

	static final String CHANNEL = "perflab:shortener:invalidations";

	static final String ACK_KEY = "perflab:shortener:edge-acks:";

	private static final Logger log = LoggerFactory.getLogger(EdgeInvalidations.class);

	private final StringRedisTemplate redis;

	private final ShortenerProperties.Edge edge;

	EdgeInvalidations(StringRedisTemplate redis, ShortenerProperties properties) {
		this.redis = redis;
		this.edge = properties.edge();
	}

	void invalidate(String code) throws InterruptedException {
		String ackKey = ACK_KEY + UUID.randomUUID();
		Long receivers = redis.convertAndSend(CHANNEL, ackKey + " " + code);
		long expected = receivers == null ? 0 : receivers;
		long deadline = System.nanoTime() + edge.ackTimeout().toNanos();
		while (expected > 0 && acks(ackKey) < expected) {
			if (System.nanoTime() > deadline) {
				Duration rest = edge.maxAge().minus(edge.ackTimeout());
				log.warn("{} of {} gateways acknowledged dropping {}; waiting out the edge max-age ({})",
						acks(ackKey), expected, code, rest);
				Thread.sleep(Math.max(0, rest.toMillis()));
				break;
			}
			Thread.sleep(2);
		}
		redis.delete(ackKey);
	}

	private long acks(String ackKey) {
		String value = redis.opsForValue().get(ackKey);
		return value == null ? 0 : Long.parseLong(value);
	}
}
