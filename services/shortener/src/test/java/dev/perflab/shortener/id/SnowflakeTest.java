package dev.perflab.shortener.id;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnowflakeTest {

	@Test
	void sixteenThreadsNeverGetTheSameId() throws Exception {
		Snowflake snowflake = new Snowflake(7, System::currentTimeMillis, 50);
		Set<Long> seen = ConcurrentHashMap.newKeySet();
		ExecutorService pool = Executors.newFixedThreadPool(16);
		List<Future<?>> done = new ArrayList<>();
		for (int t = 0; t < 16; t++) {
			done.add(pool.submit(() -> {
				for (int i = 0; i < 50_000; i++) {
					assertThat(seen.add(snowflake.nextId())).isTrue();
				}
			}));
		}
		for (Future<?> f : done) {
			f.get();
		}
		pool.shutdown();
		assertThat(seen).hasSize(800_000);
	}

	@Test
	void idsCarryTheWorkerAndTheMillisecond() {
		long now = Snowflake.EPOCH_MILLIS + 123_456_789L;
		long id = new Snowflake(1023, () -> now, 50).nextId();
		assertThat(Snowflake.workerOf(id)).isEqualTo(1023);
		assertThat(Snowflake.millisOf(id)).isEqualTo(now);
		assertThat(id).isPositive();
	}

	@Test
	void waitsForTheNextMillisecondWhenTheSequenceRunsOut() {
		AtomicLong clock = new AtomicLong(Snowflake.EPOCH_MILLIS + 1_000);
		AtomicLong calls = new AtomicLong();
		Snowflake snowflake = new Snowflake(1, () -> {
			// the clock advances only after the generator has asked many times within the exhausted millisecond
			return calls.incrementAndGet() > 5_000 ? clock.get() + 1 : clock.get();
		}, 50);
		long last = -1;
		for (int i = 0; i < 4_097; i++) {
			long id = snowflake.nextId();
			assertThat(id).isGreaterThan(last);
			last = id;
		}
		assertThat(Snowflake.millisOf(last)).isEqualTo(clock.get() + 1);
	}

	@Test
	void keepsIdsIncreasingThroughASmallClockRollback() {
		AtomicLong clock = new AtomicLong(Snowflake.EPOCH_MILLIS + 10_000);
		Snowflake snowflake = new Snowflake(1, clock::get, 50);
		long before = snowflake.nextId();
		clock.addAndGet(-20);
		long after = snowflake.nextId();
		assertThat(after).isGreaterThan(before);
		assertThat(Snowflake.millisOf(after)).isEqualTo(Snowflake.millisOf(before));
	}

	@Test
	void refusesIdsWhenTheClockJumpsBackTooFar() {
		AtomicLong clock = new AtomicLong(Snowflake.EPOCH_MILLIS + 10_000);
		Snowflake snowflake = new Snowflake(1, clock::get, 50);
		snowflake.nextId();
		clock.addAndGet(-5_000);
		assertThatThrownBy(snowflake::nextId).isInstanceOf(ClockMovedBackwardsException.class);
	}

	@Test
	void rejectsWorkerIdsOutsideTenBits() {
		assertThatThrownBy(() -> new Snowflake(1024, System::currentTimeMillis, 50))
			.isInstanceOf(IllegalArgumentException.class);
	}
}
