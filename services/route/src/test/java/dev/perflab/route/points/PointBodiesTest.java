package dev.perflab.route.points;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import dev.perflab.platform.ProblemException;
import dev.perflab.route.RouteApi;
import dev.perflab.route.dispatch.Routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The body cache: one read per route version and format however many readers miss at once, bounded by bytes. */
class PointBodiesTest {

	@Test
	void fillsOnceUnderConcurrentMisses() throws Exception {
		AtomicInteger reads = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		PointsFetch slow = (id, sink) -> {
			reads.incrementAndGet();
			try {
				release.await();
			}
			catch (InterruptedException e) {
				throw new IllegalStateException(e);
			}
			for (int i = 0; i < 1000; i++) {
				sink.point(i, 37.5 + i * 1e-5, 127.0);
			}
		};
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		PointBodies bodies = new PointBodies(10_000_000, 4, Duration.ofSeconds(10), slow, meters);
		Routes.Ref route = new Routes.Ref(1, 1, 1000);
		try (ExecutorService readers = Executors.newFixedThreadPool(64)) {
			List<Future<byte[]>> answers = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				answers.add(readers.submit(() -> bodies.gzipped(route, Format.JSON)));
			}
			// every reader has asked the cache for the body while its one read is held: the misses are concurrent
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(10))
				.until(() -> lookups(meters), equalTo(64.0));
			release.countDown();
			byte[] first = answers.getFirst().get();
			for (Future<byte[]> answer : answers) {
				assertThat(answer.get()).isSameAs(first);
			}
			assertThat(RouteApi.points(new String(RouteApi.gunzip(first)), false)).hasSize(1000);
		}
		assertThat(reads).as("one MySQL read for 64 concurrent misses").hasValue(1);
		bodies.gzipped(new Routes.Ref(1, 2, 1000), Format.JSON);
		assertThat(reads).as("a new version is a new body").hasValue(2);
	}

	@Test
	void aFailedReadIsNotRemembered() {
		AtomicInteger reads = new AtomicInteger();
		PointsFetch failingOnce = (id, sink) -> {
			if (reads.incrementAndGet() == 1) {
				throw new org.springframework.dao.TransientDataAccessResourceException("gone");
			}
			sink.point(0, 1, 1);
		};
		PointBodies bodies = new PointBodies(10_000_000, 4, Duration.ofSeconds(10), failingOnce, new SimpleMeterRegistry());
		Routes.Ref route = new Routes.Ref(1, 1, 1);
		assertThatThrownBy(() -> bodies.gzipped(route, Format.NDJSON)).hasMessageContaining("gone");
		assertThat(bodies.gzipped(route, Format.NDJSON)).isNotEmpty();
		assertThat(reads).hasValue(2);
	}

	@Test
	void coldRoutesAreReadNoMoreThanFillsAtOnceAndTheRestWaitTheirTurn() throws Exception {
		AtomicInteger reading = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		PointsFetch slow = (id, sink) -> {
			most.accumulateAndGet(reading.incrementAndGet(), Math::max);
			try {
				release.await();
			}
			catch (InterruptedException e) {
				throw new IllegalStateException(e);
			}
			sink.point(0, id, 127.0);
			reading.decrementAndGet();
		};
		PointBodies bodies = new PointBodies(10_000_000, 2, Duration.ofSeconds(30), slow, new SimpleMeterRegistry());
		try (ExecutorService readers = Executors.newFixedThreadPool(8)) {
			List<Future<byte[]>> answers = new ArrayList<>();
			for (int id = 1; id <= 8; id++) {
				Routes.Ref route = new Routes.Ref(id, 1, 1);
				answers.add(readers.submit(() -> bodies.gzipped(route, Format.JSON)));
			}
			try {
				await().atMost(Duration.ofSeconds(5)).untilAtomic(reading, equalTo(2));
				// eight cold routes asked for; while the first two are read, the other six wait and none starts
				await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilAtomic(reading, equalTo(2));
			}
			finally {
				release.countDown();
			}
			for (int id = 1; id <= 8; id++) {
				String body = new String(RouteApi.gunzip(answers.get(id - 1).get()));
				assertThat(RouteApi.points(body, false)).as("route %d read in its turn", id).hasSize(1);
				assertThat(body).contains("\"lat\":" + id + ".0");
			}
		}
		assertThat(most).as("routes read at once").hasValue(2);
	}

	@Test
	void aColdRouteWithoutATurnWithinTheWaitIsRefusedAsOverload() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		PointsFetch slow = (id, sink) -> {
			try {
				release.await();
			}
			catch (InterruptedException e) {
				throw new IllegalStateException(e);
			}
			sink.point(0, 1, 1);
		};
		PointBodies bodies = new PointBodies(10_000_000, 1, Duration.ofMillis(200), slow, new SimpleMeterRegistry());
		try (ExecutorService readers = Executors.newFixedThreadPool(1)) {
			Future<byte[]> first = readers.submit(() -> bodies.gzipped(new Routes.Ref(1, 1, 1), Format.JSON));
			try {
				await().atMost(Duration.ofSeconds(5)).until(() -> !bodies.hasTurnFree());
				assertThatThrownBy(() -> bodies.gzipped(new Routes.Ref(2, 1, 1), Format.JSON))
					.isInstanceOfSatisfying(ProblemException.class, refused -> {
						assertThat(refused.getStatusCode().value()).isEqualTo(503);
						assertThat(refused.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
						assertThat(refused.problem().getType().toString()).endsWith("overloaded");
					});
			}
			finally {
				release.countDown();
			}
			assertThat(first.get()).isNotEmpty();
		}
		assertThat(bodies.gzipped(new Routes.Ref(2, 1, 1), Format.JSON))
			.as("a refused read is not remembered: once a turn is free it is read").isNotEmpty();
	}

	/** The body cache's gets, hits and misses: a reader that finds the body being read is a hit on it. */
	private static double lookups(MeterRegistry meters) {
		return meters.find("cache.gets").functionCounters().stream().mapToDouble(FunctionCounter::count).sum();
	}
}
