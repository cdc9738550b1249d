package dev.perflab.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.MeterRegistry;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.types.RedisClientInfo;

import dev.perflab.gateway.edge.EdgeCache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

/** The redirect cache at the edge and its contract with the shortener, against real Redis pub/sub. */
class EdgeCacheTest extends GatewayTestSupport {

	static final String CHANNEL = "perflab:shortener:invalidations";

	/** Edge cache time for this class: ages move only when a test advances it, never with the wall clock. */
	static final ManualTicker TICKER = new ManualTicker();

	/**
	 * The edge cache of this class's gateway reads {@link #TICKER}; as the primary one it is the cache the filter and
	 * the invalidation listener use (the application's own stays idle).
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class ManualTime {

		@Bean
		@Primary
		EdgeCache manualTimeEdgeCache(GatewayProperties properties, MeterRegistry meters) {
			return new EdgeCache(properties.edgeCache(), meters, TICKER);
		}
	}

	@Autowired
	GatewayProperties properties;

	static final class ManualTicker implements Ticker {

		private final AtomicLong nanos = new AtomicLong(System.nanoTime());

		@Override
		public long read() {
			return nanos.get();
		}

		void advance(Duration duration) {
			nanos.addAndGet(duration.toNanos());
		}
	}

	@Test
	void redirectsArePublicAndASecondOneIsAnsweredWithoutTheShortener() {
		String code = code();
		HttpResponse<String> first = send(get("/s/" + code).header("X-Perflab-User", "mallory"));
		assertThat(first.statusCode()).isEqualTo(302);
		assertThat(first.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		HttpResponse<String> second = send(get("/s/" + code).header("X-Request-Id", "hit-1"));
		assertThat(second.statusCode()).isEqualTo(302);
		assertThat(second.headers().firstValue("Location")).hasValue("https://example.com/" + code);
		assertThat(second.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		assertThat(second.headers().firstValue("X-Request-Id")).hasValue("hit-1");
		assertThat(second.headers().firstValue("Cache-Control")).hasValue("no-cache");
		assertThat(UPSTREAM.hits(code)).isEqualTo(1);
	}

	@Test
	void neverCachesNoStoreAndDropsEntriesAtTheirMaxAge() throws Exception {
		String noStore = code();
		UPSTREAM.cacheControl.put(noStore, "no-store");
		send(get("/s/" + noStore));
		assertThat(send(get("/s/" + noStore)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(UPSTREAM.hits(noStore)).isEqualTo(2);

		String shortLived = code();
		UPSTREAM.cacheControl.put(shortLived, "max-age=1, public");
		send(get("/s/" + shortLived));
		assertThat(edgeCache(shortLived)).isEqualTo("hit");
		TICKER.advance(Duration.ofMillis(999));
		assertThat(edgeCache(shortLived)).as("999 ms into a max-age of 1 s").isEqualTo("hit");
		TICKER.advance(Duration.ofMillis(1));
		assertThat(edgeCache(shortLived)).as("at its max-age").isEqualTo("miss");
		assertThat(UPSTREAM.hits(shortLived)).isEqualTo(2);
	}

	@Test
	void neverKeepsARedirectLongerThanItsMaxAllowedTtl() {
		String longLived = code();
		UPSTREAM.cacheControl.put(longLived, "max-age=86400, public");
		send(get("/s/" + longLived));
		TICKER.advance(properties.edgeCache().maxTtl().minusNanos(1));
		assertThat(edgeCache(longLived)).isEqualTo("hit");
		TICKER.advance(Duration.ofNanos(1));
		assertThat(edgeCache(longLived)).as("a day's max-age is cut to the gateway's max-ttl").isEqualTo("miss");
		assertThat(UPSTREAM.hits(longLived)).isEqualTo(2);
	}

	@Test
	void anInvalidationEvictsAndIsAcknowledged() {
		String code = code();
		send(get("/s/" + code));
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		String ackKey = "perflab:shortener:edge-acks:test-" + UUID.randomUUID();
		Long receivers = redis.convertAndSend(CHANNEL, ackKey + " " + code);
		assertThat(receivers).isPositive();
		// every subscribed gateway acknowledges (a gateway of the local stack may be running too)
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(redis.opsForValue().get(ackKey)).isEqualTo(String.valueOf(receivers)));
		assertThat(redis.getExpire(ackKey, TimeUnit.MILLISECONDS)).isBetween(1L, 60_000L);
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(UPSTREAM.hits(code)).isEqualTo(2);
	}

	@Test
	void aRedirectFetchedAcrossAnInvalidationIsNotKept() throws Exception {
		String code = "slow" + code().substring(0, 6);
		UPSTREAM.slowGate = new CountDownLatch(1);
		CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> send(get("/s/" + code)));
		// the fetch has reached the shortener (held there) before the invalidation is published
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> UPSTREAM.hits(code) > 0);
		String ackKey = "perflab:shortener:edge-acks:test-" + UUID.randomUUID();
		redis.convertAndSend(CHANNEL, ackKey + " " + code);
		// and this gateway has handled the invalidation before the fetch may answer
		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
			.until(() -> redis.opsForValue().get(ackKey) != null);
		UPSTREAM.slowGate.countDown();
		assertThat(inFlight.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(302);
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(UPSTREAM.hits(code)).isEqualTo(2);
	}

	@Test
	void losingTheInvalidationFeedEmptiesTheCacheUntilItIsBack() {
		String code = code();
		send(get("/s/" + code));
		assertThat(edgeCache(code)).isEqualTo("hit");

		assertThat(killOwnSubscribers()).as("this gateway's subscriber connection").isPositive();
		// an invalidation published now would be lost: the cached redirect must go with the connection
		String afterLoss = await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> edgeCache(code), not(equalTo("hit")));
		assertThat(afterLoss).isEqualTo("miss");

		// once resubscribed, redirects are cached again
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> edgeCache(code), equalTo("hit"));
	}

	private String edgeCache(String code) {
		return send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache").orElse("none");
	}

	/** Cuts this gateway's pub/sub connection only (other gateways may share the Redis of the local stack). */
	private int killOwnSubscribers() {
		List<RedisClientInfo> clients = redis.execute((RedisCallback<List<RedisClientInfo>>) c -> c.serverCommands().getClientList());
		int killed = 0;
		for (RedisClientInfo client : clients) {
			Long channels = client.getChannelSubscribtions();
			if (REDIS_CLIENT_NAME.equals(client.getName()) && channels != null && channels > 0) {
				String address = client.getAddressPort();
				int colon = address.lastIndexOf(':');
				redis.execute((RedisCallback<Void>) c -> {
					c.serverCommands().killClient(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)));
					return null;
				});
				killed++;
			}
		}
		return killed;
	}
}
