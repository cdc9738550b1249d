package dev.perflab.gateway.edge;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.ReactiveSubscription.Message;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.ReactiveRedisMessageListenerContainer;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Keeps the edge cache subscribed to the shortener's invalidations ({@code <ackKey> <code>} on
 * {@value #CHANNEL}): evicts, then acknowledges with {@code INCR ackKey}, which the shortener waits for before a
 * delete returns. Also hands edge hit counts to the shortener through a Redis hash.
 * <p>
 * Redis is not needed to start: each subscription attempt opens its own listener container (whose constructor
 * connects) off the starting thread, so a gateway started while Redis is away serves, its edge cache off, and
 * subscribes once Redis answers.
 */
public class EdgeInvalidationListener implements SmartLifecycle {

	static final String CHANNEL = "perflab:shortener:invalidations";

	static final String EDGE_HITS = "perflab:shortener:edge-hits";

	private static final Logger log = LoggerFactory.getLogger(EdgeInvalidationListener.class);

	private final EdgeCache cache;

	private final ReactiveRedisConnectionFactory connections;

	private final ReactiveStringRedisTemplate redis;

	private final Flux<?> connectionLosses;

	private volatile Disposable subscription;

	/**
	 * @param connectionLosses emits whenever a Redis connection drops (Lettuce's DisconnectedEvent); any drop counts,
	 * since telling the subscriber's connection apart is not worth a cache that might miss an invalidation
	 */
	public EdgeInvalidationListener(EdgeCache cache, ReactiveRedisConnectionFactory connections,
			ReactiveStringRedisTemplate redis, Flux<?> connectionLosses) {
		this.cache = cache;
		this.connections = connections;
		this.redis = redis;
		this.connectionLosses = connectionLosses;
	}

	@Override
	public void start() {
		subscription = Flux.defer(() -> Flux.merge(invalidations(), lostConnections()))
			.concatMap(message -> acknowledge(message.getMessage()))
			.doOnError(e -> {
				cache.unsubscribed();
				log.warn("edge cache off until the invalidation feed is back: {}", e.toString());
			})
			.doOnComplete(cache::unsubscribed)
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(5)))
			.subscribe();
	}

	/**
	 * The cache goes live only once Redis has confirmed the SUBSCRIBE, never before. The container is this
	 * attempt's own, destroyed when the attempt ends (a lost connection, a stop).
	 */
	private Flux<Message<String, String>> invalidations() {
		return Flux.usingWhen(
				Mono.fromCallable(() -> new ReactiveRedisMessageListenerContainer(connections))
					.subscribeOn(Schedulers.boundedElastic()),
				container -> container.receiveLater(ChannelTopic.of(CHANNEL)).flatMapMany(messages -> {
					cache.subscribed();
					log.info("edge cache live: subscribed to {}", CHANNEL);
					return messages;
				}), ReactiveRedisMessageListenerContainer::destroyLater);
	}

	/**
	 * Lettuce reconnects and resubscribes a dropped pub/sub connection silently, so the receive stream never
	 * fails, yet whatever was published meanwhile is lost: without this the cache kept serving deleted links after
	 * a Redis blip (the feed-loss test proved it). A lost connection fails the stream instead, which empties the
	 * cache and subscribes afresh.
	 */
	private Flux<Message<String, String>> lostConnections() {
		return connectionLosses.flatMap(
				loss -> Mono.<Message<String, String>>error(new IllegalStateException("Redis connection lost: " + loss)));
	}

	private Mono<Long> acknowledge(String message) {
		int space = message.indexOf(' ');
		if (space <= 0) {
			return Mono.empty();
		}
		String ackKey = message.substring(0, space);
		cache.invalidate(message.substring(space + 1));
		return redis.opsForValue()
			.increment(ackKey)
			.flatMap(n -> redis.expire(ackKey, Duration.ofSeconds(60)).thenReturn(n))
			.onErrorResume(e -> Mono.empty());
	}

	@Scheduled(fixedDelayString = "${perflab.gateway.edge-cache.hit-flush-interval:1s}")
	void flushHits() {
		Map<String, Long> batch = cache.drainHits();
		if (batch.isEmpty()) {
			return;
		}
		List<Mono<Long>> increments = batch.entrySet()
			.stream()
			.map(e -> redis.opsForHash().increment(EDGE_HITS, e.getKey(), e.getValue()))
			.toList();
		try {
			Flux.merge(increments).then().block(Duration.ofSeconds(5));
		}
		catch (RuntimeException e) {
			log.warn("could not hand {} edge hit counts to the shortener, keeping them: {}", batch.size(), e.toString());
			cache.restoreHits(batch);
		}
	}

	@Override
	public void stop() {
		Disposable current = subscription;
		if (current != null) {
			current.dispose();
		}
		cache.unsubscribed();
		flushHits();
	}

	@Override
	public boolean isRunning() {
		Disposable current = subscription;
		return current != null && !current.isDisposed();
	}
}
