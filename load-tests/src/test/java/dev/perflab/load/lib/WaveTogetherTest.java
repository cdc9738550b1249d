package dev.perflab.load.lib;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A wave (a crowd that runs once, the seeds' "1,000 users started together") begins together: JMeter starts a thread
 * group's threads one after another, so each VU waits at its lane until every VU of the share is there. Judged by
 * order, not by time: no VU goes before the last one arrived.
 */
class WaveTogetherTest {

	private static final int VUS = 12;

	@Test
	void noVuOfAWaveGoesBeforeTheLastArrives() throws Exception {
		Lane lane = lane(Load.once(VUS, Duration.ofSeconds(10), Duration.ofSeconds(1)));
		AtomicLong lastArrival = new AtomicLong();
		AtomicLongArray released = new AtomicLongArray(VUS);
		Thread[] vus = new Thread[VUS];
		for (int i = 0; i < VUS; i++) {
			int vu = i;
			vus[i] = Thread.ofVirtual().start(() -> {
				lastArrival.accumulateAndGet(System.nanoTime(), Math::max);
				lane.awaitTogether(() -> false, Duration.ofSeconds(30));
				released.set(vu, System.nanoTime());
			});
			Thread.sleep(20);   // arriving one after another, as JMeter starts them
		}
		for (Thread vu : vus) {
			vu.join();
		}
		for (int i = 0; i < VUS; i++) {
			assertThat(released.get(i)).as("VU %d's release", i).isGreaterThanOrEqualTo(lastArrival.get());
		}
	}

	@Test
	void aStoppedRunOrAVuThatNeverComesDoesNotHoldTheOthers() throws Exception {
		Lane lane = lane(Load.once(VUS, Duration.ofSeconds(10), Duration.ofSeconds(1)));
		AtomicBoolean stopped = new AtomicBoolean();
		Thread waiting = Thread.ofVirtual().start(() -> lane.awaitTogether(stopped::get, Duration.ofSeconds(30)));
		Thread.sleep(200);
		assertThat(waiting.isAlive()).as("waits for the others").isTrue();
		stopped.set(true);
		waiting.join(5_000);
		assertThat(waiting.isAlive()).as("let go once the run is stopped").isFalse();
		long before = System.nanoTime();
		lane.awaitTogether(() -> false, Duration.ofMillis(300));
		assertThat(System.nanoTime() - before).as("let go at its bound").isLessThan(Duration.ofSeconds(5).toNanos());
	}

	@Test
	void lanesThatAreNoWaveDoNotWait() throws Exception {
		Lane lane = lane(Load.closed(VUS, Duration.ofSeconds(1), Duration.ofSeconds(1)));
		long before = System.nanoTime();
		lane.awaitTogether(() -> false, Duration.ofSeconds(30));
		assertThat(System.nanoTime() - before).isLessThan(Duration.ofSeconds(1).toNanos());
	}

	private static Lane lane(Load load) {
		return Lane.of(load, Settings.of(Map.of("BASE_URL", "http://127.0.0.1:9"), List.of())).get(0);
	}

}
