package dev.perflab.notifier;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab baseline ({@code in-transaction-sync}, seeds 001 and 003's start): the SMS arrives while the registration's
 * transaction is still open, holding its pooled connection, and the request waits for the provider.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { NotifierTestBase.TEST_DB,
		NotifierTestBase.FAST_SWEEPER_POLL, "perflab.notifier.dispatch=in-transaction-sync" })
class InTransactionSyncTest extends NotifierTestBase {

	@Autowired
	HikariDataSource pool;

	@Test
	void callsTheProviderInsideTheOpenTransactionHoldingItsConnection() {
		SINK.latency(Duration.ofMillis(300));
		String office = office(), phone = phone();
		long event = api.event(office, "sync");
		Map<String, int[]> atSend = new ConcurrentHashMap<>();
		SINK.onDelivery(id -> atSend.put(id, new int[] { NotifierServiceTest.committedGuestbookRows(e164(phone)),
				pool.getHikariPoolMXBean().getActiveConnections() }));

		long started = System.nanoTime();
		HttpResponse<String> signed = api.sign(office, event, "Kim", phone, "congratulations");
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		assertThat(signed.statusCode()).as(signed.body()).isEqualTo(201);
		long notification = ((Number) NotifierApi.map(signed).get("notification_id")).longValue();

		int[] seen = atSend.get(messageId(notification));
		assertThat(seen).as("the SMS arrived before the answer").isNotNull();
		assertThat(seen[0]).as("the entry was not committed yet when the SMS arrived").isZero();
		assertThat(seen[1]).as("connections in use while the provider answered").isGreaterThanOrEqualTo(1);
		assertThat(took).as("the request waited for the provider").isGreaterThanOrEqualTo(Duration.ofMillis(300));
		// SENT committed with the registration itself
		assertThat(api.status(office, notification)).isEqualTo("SENT");
		assertThat(SINK.count(messageId(notification))).isEqualTo(1);
	}
}
