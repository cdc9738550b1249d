package dev.perflab.gateway;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The edge redirect cache: what it keeps, for how long, and how an invalidation reaches it. */
class EdgeCacheTest extends GatewayTestSupport {

	@Test
	void redirectsArePublicAndCachedAtTheEdge() {
		String code = code();
		HttpResponse<String> first = send(get("/s/" + code).header("X-Perflab-User", "mallory"));
		assertThat(first.statusCode()).isEqualTo(302);
		assertThat(first.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		HttpResponse<String> second = send(get("/s/" + code));
		assertThat(second.statusCode()).isEqualTo(302);
		assertThat(second.headers().firstValue("Location")).hasValue("https://example.com/" + code);
		assertThat(second.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		assertThat(second.headers().firstValue("Cache-Control")).hasValue("no-cache");
		assertThat(UPSTREAM.hits(code)).isEqualTo(1);
	}

	@Test
	void neverCachesNoStoreAndDropsEntriesAtTheirMaxAge() throws Exception {
		String noStore = code();
		UPSTREAM.cacheControl.put(noStore, "no-store");
		send(get("/s/" + noStore));
		send(get("/s/" + noStore));
		assertThat(UPSTREAM.hits(noStore)).isEqualTo(2);

		String shortLived = code();
		UPSTREAM.cacheControl.put(shortLived, "max-age=1, public");
		send(get("/s/" + shortLived));
		assertThat(send(get("/s/" + shortLived)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		Thread.sleep(1_100);
		assertThat(send(get("/s/" + shortLived)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(UPSTREAM.hits(shortLived)).isEqualTo(2);
	}

	@Test
	void anInvalidationEvictsAndIsAcknowledged() throws Exception {
		String code = code();
		send(get("/s/" + code));
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		String ackKey = "perflab:shortener:edge-acks:test-" + UUID.randomUUID();
		Long receivers = redis.convertAndSend("perflab:shortener:invalidations", ackKey + " " + code);
		assertThat(receivers).isPositive();
		// every subscribed gateway acknowledges (another one of the local stack may be running too)
		for (int i = 0; i < 100 && !String.valueOf(receivers).equals(redis.opsForValue().get(ackKey)); i++) {
			Thread.sleep(10);
		}
		assertThat(redis.opsForValue().get(ackKey)).isEqualTo(String.valueOf(receivers));
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
	}

	@Test
	void aRedirectFetchedAcrossAnInvalidationIsNotKept() throws Exception {
		String code = "slow" + code().substring(0, 6);
		UPSTREAM.slowGate = new CountDownLatch(1);
		CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> send(get("/s/" + code)));
		for (int i = 0; i < 200 && UPSTREAM.hits(code) == 0; i++) {
			Thread.sleep(10);
		}
		String ackKey = "perflab:shortener:edge-acks:test-" + UUID.randomUUID();
		redis.convertAndSend("perflab:shortener:invalidations", ackKey + " " + code);
		for (int i = 0; i < 100 && redis.opsForValue().get(ackKey) == null; i++) {
			Thread.sleep(10);
		}
		UPSTREAM.slowGate.countDown();
		assertThat(inFlight.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(302);
		assertThat(send(get("/s/" + code)).headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
	}
}
