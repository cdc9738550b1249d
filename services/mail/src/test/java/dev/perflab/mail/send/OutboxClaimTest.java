package dev.perflab.mail.send;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several relays (mail replicas) drain one outbox side by side: SKIP LOCKED plus the lease give every row to
 * exactly one of them, and a claimed row is not claimed again until its lease runs out. Real MariaDB; no relay loop
 * runs in the module tests ({@code perflab.mail.relay.enabled=false}), so only the test's claimers take rows.
 */
@SpringBootTest(properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_mail_test",
		"perflab.mail.storage=target/mail-storage-test", "perflab.mail.relay.send-url=http://127.0.0.1:9",
		"perflab.mail.relay.enabled=false" })
class OutboxClaimTest {

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
		TestIdentity.signAsMail(registry);
	}

	@Autowired
	OutboxRelay relay;

	@Autowired
	JdbcTemplate jdbc;

	@Test
	void concurrentRelaysClaimEveryRowExactlyOnce() throws Exception {
		jdbc.update("DELETE FROM outbox WHERE mail_no < 0");
		jdbc.update("UPDATE outbox SET dead_at = ? WHERE sent_at IS NULL AND dead_at IS NULL", Timestamp.from(Instant.now()));
		int rows = 400;
		Timestamp due = Timestamp.from(Instant.now().minusSeconds(1));
		for (int i = 0; i < rows; i++) {
			jdbc.update("INSERT INTO outbox (job_id, mail_no, payload, created_at, next_attempt_at) VALUES (UUID(), ?, '{}', ?, ?)",
					-1 - i, due, due);
		}

		ExecutorService claimers = Executors.newFixedThreadPool(4);
		List<Future<List<Long>>> results = new ArrayList<>();
		for (int c = 0; c < 4; c++) {
			Callable<List<Long>> claimer = () -> {
				List<Long> mine = new ArrayList<>();
				List<OutboxRelay.Row> batch;
				while (!(batch = relay.claim(7)).isEmpty()) {
					batch.forEach(row -> mine.add(row.id()));
				}
				return mine;
			};
			results.add(claimers.submit(claimer));
		}
		List<Long> all = new ArrayList<>();
		int claimersWithRows = 0;
		for (Future<List<Long>> result : results) {
			List<Long> mine = result.get();
			claimersWithRows += mine.isEmpty() ? 0 : 1;
			all.addAll(mine);
		}
		assertThat(claimersWithRows).as("the claimers really ran side by side").isGreaterThan(1);
		claimers.shutdown();

		Set<Long> distinct = new HashSet<>(all);
		assertThat(all).as("no row claimed twice").hasSameSizeAs(distinct);
		assertThat(distinct).as("every due row claimed").hasSize(rows);
		assertThat(relay.claim(100)).as("claimed rows wait for their lease").isEmpty();
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM outbox WHERE mail_no < 0 AND attempts = 1", Long.class))
			.as("every due row claimed exactly once").isEqualTo(rows);
		jdbc.update("DELETE FROM outbox WHERE mail_no < 0");
	}
}
