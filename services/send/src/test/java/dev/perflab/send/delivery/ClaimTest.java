package dev.perflab.send.delivery;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several send instances claim from one queue side by side: every due job goes to exactly one of them, a claimed
 * job stays theirs for its lease, and an expired lease (the instance died) puts it back. Real MariaDB; the
 * worker's own loop is stopped before each test so only the test's claimers take jobs (an hour's poll alone does not
 * park it: its first pass claims by the real clock, by which this test's jobs are due, and every job it processes
 * wakes it again). The database is shared (other tests, other runs): the claimers' clock is set to the year 2000 and
 * this test's jobs were due then, so the claims and the requeue touch this test's rows only, and the rows are deleted
 * afterwards.
 */
@SpringBootTest(properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_send_test",
		"perflab.send.delivery.poll-interval=1h" })
class ClaimTest {

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway", "mail");
	}

	@Autowired
	DeliveryStore store;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	DeliveryWorker worker;

	static final Instant CLOCK = Instant.parse("2000-01-01T00:00:00Z");

	@BeforeEach
	void parkTheWorker() {
		worker.stop();
	}

	@Test
	void concurrentInstancesClaimEveryJobOnceAndAnExpiredLeaseReturnsIt() throws Exception {
		String run = "claim-" + UUID.randomUUID();
		int jobs = 300;
		Timestamp now = Timestamp.from(CLOCK);
		Timestamp due = Timestamp.from(CLOCK.minusSeconds(1));
		for (int i = 0; i < jobs; i++) {
			jdbc.update("""
					INSERT INTO delivery_job (job_id, mail_no, office_no, owner, sender, separate_send, eml, digest, status,
					  next_attempt_at, created_at) VALUES (?, ?, 1, 'claim', 'a@example.com', FALSE, 'x', 'd', 'PENDING', ?, ?)""",
					id(run, i), i + 1, due, due);
		}
		try {
			claimsAndRequeues(run, jobs, now);
		}
		finally {
			jdbc.update("DELETE FROM delivery_job WHERE job_id LIKE ?", run + "-%");
		}
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM delivery_job WHERE next_attempt_at < '2001-01-01'", Long.class))
			.as("nothing else was due by the test's clock, and its own rows are gone").isZero();
	}

	private void claimsAndRequeues(String run, int jobs, Timestamp now) throws Exception {

		ExecutorService instances = Executors.newFixedThreadPool(4);
		List<Future<List<String>>> results = new ArrayList<>();
		for (int c = 0; c < 4; c++) {
			results.add(instances.submit(() -> {
				List<String> mine = new ArrayList<>();
				List<String> batch;
				while (!(batch = ids(store.claim(8, Duration.ofMinutes(5), now))).isEmpty()) {
					mine.addAll(batch);
				}
				return mine;
			}));
		}
		List<String> all = new ArrayList<>();
		for (Future<List<String>> result : results) {
			all.addAll(result.get());
		}
		instances.shutdown();
		Set<String> distinct = new HashSet<>(all);
		assertThat(all).as("no job claimed twice").hasSameSizeAs(distinct);
		assertThat(distinct).as("every due job claimed, and only this test's").hasSize(jobs).allMatch(id -> id.startsWith(run));
		assertThat(store.claim(50, Duration.ofMinutes(5), now)).as("claimed jobs stay with their claimer").isEmpty();

		// the claimer of the first ten dies: their leases run out, and they are due again
		jdbc.update("UPDATE delivery_job SET lease_until = ? WHERE job_id LIKE ? AND mail_no <= 10",
				Timestamp.from(CLOCK.minusSeconds(1)), run + "-%");
		assertThat(store.requeueExpired(now)).isEqualTo(10);
		List<Claim> again = store.claim(50, Duration.ofMinutes(5), now);
		assertThat(ids(again)).hasSize(10).allMatch(id -> Integer.parseInt(id.substring(run.length() + 1)) < 10);
		assertThat(again).as("the second claim is the second attempt, and carries it as its token")
			.extracting(Claim::attempt).containsOnly(2);
		assertThat(jdbc.queryForObject("SELECT MAX(attempts) FROM delivery_job WHERE job_id LIKE ?", Integer.class, run + "-%"))
			.as("the second claim is the second attempt").isEqualTo(2);
	}

	private static List<String> ids(List<Claim> claims) {
		return claims.stream().map(Claim::jobId).toList();
	}

	private static String id(String run, int i) {
		return run + "-" + i;
	}

	@Test
	void finishedJobsAreDeletedWithTheirRecipientsAfterTheRetention() {
		long base = System.currentTimeMillis() * 1000 + 500;
		Instant now = Instant.now();
		for (long no : new long[] { base, base + 1 }) {
			Timestamp finished = Timestamp.from(no == base ? now.minus(Duration.ofDays(40)) : now.minus(Duration.ofDays(1)));
			jdbc.update("""
					INSERT INTO delivery_job (job_id, mail_no, office_no, owner, sender, separate_send, eml, digest, status,
					  next_attempt_at, created_at, finished_at) VALUES (?, ?, 1, 'purge', 'a@example.com', FALSE, '', 'd', 'DONE', ?, ?, ?)""",
					"purge-" + no, no, finished, finished, finished);
			jdbc.update("""
					INSERT INTO recipient (job_id, mail_no, email, kind, status) VALUES (?, ?, 'r@example.com', 'to', 'DELIVERED')""",
					"purge-" + no, no);
		}
		while (store.purgeFinished(now.minus(Duration.ofDays(30)), 500) > 0) {
			// older jobs of earlier runs go too
		}
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM delivery_job WHERE mail_no IN (?, ?)", Long.class, base, base + 1))
			.as("only the job finished a day ago is left").isEqualTo(1);
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM recipient WHERE mail_no = ?", Long.class, base)).isZero();
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM recipient WHERE mail_no = ?", Long.class, base + 1)).isEqualTo(1);
	}
}
