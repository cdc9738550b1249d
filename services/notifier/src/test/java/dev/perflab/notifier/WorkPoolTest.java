package dev.perflab.notifier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Seed 001's profile with one pool had up to 100 dispatch threads waiting for the same 10 connections as the
 * signings. Counted at the pools: a signing takes one connection of the requests' pool (its transaction), and its
 * send takes two of the work pool (the claim, the SENT) and none of the requests'.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { NotifierTestBase.TEST_DB,
		NotifierTestBase.FAST_SWEEPER_POLL,
		// the dispatch sends every one; a sweeper that took one after its grace would be another path
		"perflab.notifier.sweeper.grace=5m" })
class WorkPoolTest extends NotifierTestBase {

	@Autowired
	MeterRegistry meters;

	@Autowired
	HikariDataSource requests;

	@Test
	void sendsClaimAndSettleOnTheWorkPoolNeverOnARequestConnection() {
		String office = office();
		long event = api.event(office, "pools");
		int signings = 20;
		long requestsBefore = acquired(requests.getPoolName()), workBefore = acquired("notifier-work");

		List<Long> notifications = new ArrayList<>();
		for (int i = 0; i < signings; i++) {
			notifications.add(api.signed(office, event, phone()));
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> notifications.stream().allMatch(n -> SINK.count(messageId(n)) == 1));
		// each send's claim and SENT on the work pool (the housekeeping's backlog query may add a few)
		await().atMost(Duration.ofSeconds(10)).until(() -> acquired("notifier-work") - workBefore >= 2L * signings);

		assertThat(acquired(requests.getPoolName()) - requestsBefore).as("requests' connections taken")
			.isEqualTo(signings);
		assertThat(notifications).allSatisfy(n -> assertThat(api.status(office, n)).isEqualTo("SENT"));
	}

	private long acquired(String pool) {
		var timer = meters.find("hikaricp.connections.acquire").tag("pool", pool).timer();
		return timer == null ? 0 : timer.count();
	}
}
