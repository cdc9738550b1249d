package dev.perflab.route.points;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.route.RouteApi;
import dev.perflab.route.route.Routes;

import static org.assertj.core.api.Assertions.assertThat;
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
		PointBodies bodies = new PointBodies(10_000_000, slow, new SimpleMeterRegistry());
		Routes.Ref route = new Routes.Ref(1, 1, 1000);
		try (ExecutorService readers = Executors.newFixedThreadPool(64)) {
			List<Future<byte[]>> answers = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				answers.add(readers.submit(() -> bodies.gzipped(route, Format.JSON)));
			}
			Thread.sleep(200);
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
		PointBodies bodies = new PointBodies(10_000_000, failingOnce, new SimpleMeterRegistry());
		Routes.Ref route = new Routes.Ref(1, 1, 1);
		assertThatThrownBy(() -> bodies.gzipped(route, Format.NDJSON)).hasMessageContaining("gone");
		assertThat(bodies.gzipped(route, Format.NDJSON)).isNotEmpty();
		assertThat(reads).hasValue(2);
	}
}
