package dev.perflab.notifier;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Seed 001's executor with room for two sends (one thread, a queue of one) against a burst of 40 registrations:
 * most dispatches are refused. Seed 001's DiscardPolicy would have dropped them; here every one is SENT, exactly once.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { NotifierTestBase.TEST_DB,
		NotifierTestBase.FAST_SWEEPER_POLL, NotifierTestBase.FAST_BACKOFF, NotifierTestBase.FAST_MAX_BACKOFF,
		"perflab.notifier.executor.core-pool-size=1", "perflab.notifier.executor.max-pool-size=1",
		"perflab.notifier.executor.queue-capacity=1", "perflab.notifier.sweeper.concurrency=4",
		// the sweeper takes refused dispatches at once; its grace must not be what sends them
		"perflab.notifier.sweeper.grace=5m" })
class DispatchBurstTest extends NotifierTestBase {

	@Autowired
	MeterRegistry meters;

	@Test
	void everyRefusedDispatchIsStillSentExactlyOnce() throws Exception {
		SINK.latency(Duration.ofMillis(100));
		String office = office();
		long event = api.event(office, "burst");
		double rejectedBefore = rejections();
		List<Future<Long>> burst;
		try (ExecutorService clients = Executors.newFixedThreadPool(20)) {
			burst = clients.invokeAll(java.util.stream.IntStream.range(0, 40)
				.mapToObj(i -> (java.util.concurrent.Callable<Long>) () -> api.signed(office, event, phone()))
				.toList());
		}
		List<Long> notifications = burst.stream().map(f -> {
			try {
				return f.get();
			}
			catch (Exception e) {
				throw new IllegalStateException(e);
			}
		}).toList();
		double rejected = rejections() - rejectedBefore;
		assertThat(rejected).as("dispatches the executor refused").isGreaterThanOrEqualTo(10);

		await().atMost(Duration.ofSeconds(20))
			.until(() -> notifications.stream().allMatch(n -> api.status(office, n).equals("SENT")));
		assertThat(notifications).allSatisfy(n -> assertThat(SINK.count(messageId(n))).as("deliveries of %d", n).isEqualTo(1));
	}

	private double rejections() {
		return meters.get("perflab.notifier.dispatch.rejections").counter().count();
	}
}
