package dev.perflab.mail.send;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.internet.InternetAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.unit.DataSize;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.MailApi;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.MailServiceTest;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.smtp.MailAddress;
import dev.perflab.platform.TestClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The recipient quota against real MariaDB, at 40 recipients per user and 60 per office an hour. Each test runs in an
 * hour of its own on a clock the test moves (far from the real hours the other tests send in); alice and bob are
 * both in office 1.
 */
@TestPropertySource(properties = { "perflab.mail.quota.per-user=40", "perflab.mail.quota.per-office=60" })
class RecipientQuotaTest extends MailServiceTest {

	static final Instant FIRST_HOUR = Instant.parse("2100-01-01T00:00:00Z");

	/** the test hours' rows, and the purge test's from a day before them */
	static final String TEST_ROWS = "window_start >= '2099-12-01'";

	static final AtomicLong HOURS = new AtomicLong();

	@Autowired
	TestClock clock;

	@Autowired
	MeterRegistry meters;

	@Autowired
	SendHandoff handoff;

	@Autowired
	RecipientQuota quota;

	@Autowired
	JdbcClient jdbcClient;

	@Autowired
	TransactionTemplate tx;

	@Autowired
	MailProperties properties;

	Instant hour;

	@BeforeEach
	void anHourOfItsOwn() {
		jdbc.update("DELETE FROM recipient_quota WHERE " + TEST_ROWS);
		hour = FIRST_HOUR.plus(Duration.ofHours(HOURS.getAndIncrement()));
		clock.set(hour.plus(Duration.ofMinutes(20)));
	}

	@AfterEach
	void forgetTheTestHours() {
		jdbc.update("DELETE FROM recipient_quota WHERE " + TEST_ROWS);
		// the storage quota counts these sends too, on the test clock's days
		jdbc.update("DELETE FROM storage_quota WHERE day >= '2099-12-01'");
	}

	@Test
	void acceptsUpToTheUserQuotaAndRefusesTheSendThatWouldPassItWritingNothing() {
		double refusedBefore = refusals("user");
		assertThat(send("alice", 1, 30).statusCode()).isEqualTo(202);

		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("alice", 1, 11), 429);
		assertThat(refused.headers().firstValue("Retry-After")).as("seconds until the hour ends").hasValue("2400");
		Map<?, ?> problem = MailApi.json(refused);
		assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/recipient-quota");
		assertThat(problem.get("scope")).isEqualTo("user");
		assertThat(problem.get("limit")).isEqualTo(40);
		assertThat((String) problem.get("detail")).contains("user recipient quota of 40 recipients per hour");

		assertThat(send("alice", 1, 10).statusCode()).as("the room that is left is usable").isEqualTo(202);
		assertRefusedWritingNothing(() -> send("alice", 1, 1), 429);
		assertThat(used("user", 1)).isEqualTo(40);
		assertThat(refusals("user") - refusedBefore).isEqualTo(2);
	}

	@Test
	void theOfficeQuotaCountsEveryUserOfTheOfficeAndTellsNothingAboutThem() {
		double refusedBefore = refusals("office");
		assertThat(send("alice", 1, 35).statusCode()).isEqualTo(202);
		assertThat(send("bob", 2, 25).statusCode()).isEqualTo(202);

		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("bob", 2, 1), 429);
		Map<?, ?> problem = MailApi.json(refused);
		assertThat(problem.get("scope")).as("bob is far below his own quota").isEqualTo("office");
		assertThat(problem.get("limit")).isEqualTo(60);
		assertThat(refused.body()).doesNotContain("alice").doesNotContain("35").doesNotContain("25");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("2400");
		assertThat(used("office", 1)).isEqualTo(60);
		assertThat(refusals("office") - refusedBefore).isEqualTo(1);
	}

	@Test
	void concurrentSendersNeverPassTheQuota() throws Exception {
		long mails = count("mail_content"), outbox = count("outbox");
		int threads = 8, sendsEach = 10;
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService senders = Executors.newFixedThreadPool(threads);
		List<Future<List<Integer>>> results = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			boolean alice = t % 2 == 0;
			Callable<List<Integer>> sender = () -> {
				start.await();
				List<Integer> statuses = new ArrayList<>();
				for (int i = 0; i < sendsEach; i++) {
					statuses.add(alice ? send("alice", 1, 1).statusCode() : send("bob", 2, 1).statusCode());
				}
				return statuses;
			};
			results.add(senders.submit(sender));
		}
		start.countDown();
		List<Integer> statuses = new ArrayList<>();
		for (Future<List<Integer>> result : results) {
			statuses.addAll(result.get());
		}
		senders.shutdown();

		assertThat(statuses).as("80 one-recipient sends, 40 each from alice and bob, against an office quota of 60")
			.hasSize(80).containsOnly(202, 429);
		assertThat(statuses.stream().filter(s -> s == 202).count()).as("exactly the quota accepted").isEqualTo(60);
		assertThat(used("office", 1)).isEqualTo(60);
		assertThat(used("user", 1) + used("user", 2)).isEqualTo(60);
		assertThat(used("user", 1)).isLessThanOrEqualTo(40);
		assertThat(used("user", 2)).isLessThanOrEqualTo(40);
		assertThat(count("mail_content") - mails).as("a mail per accepted send, none for a refused one").isEqualTo(60);
		assertThat(count("outbox") - outbox).isEqualTo(60);
	}

	@Test
	void theQuotaFreesWhenTheHourTurns() {
		clock.set(hour.plus(Duration.ofMinutes(59)).plusSeconds(30));
		assertThat(send("alice", 1, 40).statusCode()).isEqualTo(202);
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("alice", 1, 1), 429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");

		clock.set(clock.instant().plusSeconds(30));
		assertThat(send("alice", 1, 1).statusCode()).as("a new hour").isEqualTo(202);
		assertThat(used("user", 1)).as("this hour's count").isEqualTo(1);
		assertThat(jdbc.queryForObject("SELECT recipients FROM recipient_quota WHERE scope = 'user' AND subject = 1 "
				+ "AND window_start = ?", Integer.class, utc(hour)))
			.as("the last hour's").isEqualTo(40);
	}

	@Test
	void refusesAMailLargerThanAWholeHoursQuotaForGood() {
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("alice", 1, 41), 400);
		assertThat(MailApi.json(refused).get("type")).isEqualTo("https://perflab.dev/problems/too-many-recipients");
		assertThat(refused.headers().firstValue("Retry-After")).as("no later hour takes it").isEmpty();
	}

	/** Another replica charged the hour after this send's precheck: the send's own transaction refuses it. */
	@Test
	void aSendRefusedInsideItsTransactionRollsBackItsMailTagsOutboxRowAndCount() {
		jdbc.update("INSERT INTO recipient_quota (window_start, scope, subject, recipients) VALUES (?, 'user', 1, 39)",
				utc(hour));
		long mails = count("mail_content"), outbox = count("outbox"), tags = count("receipt_confirm");
		Account alice = new Account(1, 1, "alice@o1.perflab.test", "alice");
		List<InternetAddress> to = List.of(address("jerry@example.com"));
		List<InternetAddress> cc = List.of(address("tom@example.com"));
		SendRequest request = new SendRequest(null, 1L, List.of("jerry@example.com"), List.of("tom@example.com"), null,
				"s", "c", false, true, false, false, true);
		Map<String, String> keys = new LinkedHashMap<>(Map.of("jerry@example.com", Sends.receiptKey(),
				"tom@example.com", Sends.receiptKey()));
		Draft draft = new Draft(alice, request, "quota/none.eml", 1, to, cc, List.of(),
				new LinkedHashSet<>(keys.keySet()), UUID.randomUUID().toString(), keys);

		assertThatThrownBy(() -> handoff.commit(draft)).isInstanceOfSatisfying(ProblemException.class,
				e -> assertThat(e.getStatusCode().value()).isEqualTo(429));
		assertThat(count("mail_content")).isEqualTo(mails);
		assertThat(count("outbox")).isEqualTo(outbox);
		assertThat(count("receipt_confirm")).isEqualTo(tags);
		assertThat(used("user", 1)).isEqualTo(39);
		assertThat(used("office", 1)).as("the office row the refused send created is gone too").isZero();
	}

	@Test
	void aLimitOfZeroIsOff() {
		MailProperties officeOnly = new MailProperties(properties.listCount(), properties.emlRead(), properties.storage(),
				properties.storageReserve(), properties.maxPageSize(), properties.maxBodyChars(), properties.sendHandoff(),
				properties.relay(), new MailProperties.Quota(0, 60, Duration.ofDays(1), DataSize.ofBytes(0)));
		RecipientQuota offForUsers = new RecipientQuota(jdbcClient, officeOnly, clock, new SimpleMeterRegistry());
		Account alice = new Account(1, 1, "alice@o1.perflab.test", "alice");
		tx.executeWithoutResult(status -> offForUsers.charge(alice, 50));
		tx.executeWithoutResult(status -> offForUsers.charge(alice, 10));

		assertThat(used("office", 1)).isEqualTo(60);
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM recipient_quota WHERE scope = 'user' AND " + TEST_ROWS,
				Long.class)).as("no user counted").isZero();
	}

	@Test
	void purgesTheCountersOfHoursPastTheirRetention() {
		for (int hoursAgo : List.of(26, 24, 0)) {
			jdbc.update("INSERT INTO recipient_quota (window_start, scope, subject, recipients) VALUES (?, 'user', 1, 5)",
					utc(hour.minus(Duration.ofHours(hoursAgo))));
		}
		quota.purge();
		assertThat(jdbc.queryForList("SELECT window_start FROM recipient_quota WHERE " + TEST_ROWS + " ORDER BY 1",
				LocalDateTime.class))
			.as("a day's hours kept after they ended, older ones deleted")
			.containsExactly(utc(hour.minus(Duration.ofHours(24))),
					utc(hour));
	}

	/** A send of {@code recipients} distinct addresses spread over to, cc and bcc. */
	private HttpResponse<String> send(String user, long senderNo, int recipients) {
		List<List<String>> fields = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
		String tag = Long.toString(System.nanoTime(), 36);
		for (int i = 0; i < recipients; i++) {
			fields.get(i % 3).add("r" + i + "-" + tag + "@quota.perflab.test");
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("sender_no", senderNo);
		body.put("to", fields.get(0));
		body.put("cc", fields.get(1));
		body.put("bcc", fields.get(2));
		body.put("subject", "quota");
		body.put("content", "hello");
		body.put("is_receipt_confirm", true);
		return api.post(user, "/v2/mails/send", "application/json", MailApi.JSON.writeValueAsString(body));
	}

	private HttpResponse<String> assertRefusedWritingNothing(Callable<HttpResponse<String>> call, int status) {
		long mails = count("mail_content"), outbox = count("outbox"), tags = count("receipt_confirm");
		long counted = jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota", Long.class);
		HttpResponse<String> response;
		try {
			response = call.call();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				type -> assertThat(type).startsWith("application/problem+json"));
		assertThat(count("mail_content")).isEqualTo(mails);
		assertThat(count("outbox")).isEqualTo(outbox);
		assertThat(count("receipt_confirm")).isEqualTo(tags);
		assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota", Long.class))
			.as("no count moved").isEqualTo(counted);
		return response;
	}

	/** this test hour's count of one user or office */
	private long used(String scope, long subject) {
		return jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota WHERE window_start = ? "
				+ "AND scope = ? AND subject = ?", Long.class, hour(clock), scope, subject);
	}

	private double refusals(String scope) {
		return meters.get("perflab.mail.quota.refusals").tag("scope", scope).counter().count();
	}

	private static LocalDateTime utc(Instant instant) {
		return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	private static InternetAddress address(String value) {
		return MailAddress.require("to", value).internetAddress();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Clocks {

		@Bean
		@Primary
		TestClock testClock() {
			return new TestClock();
		}
	}

	/** the start of the clock's current hour, as the quota's rows name it (UTC) */
	private static LocalDateTime hour(TestClock clock) {
		return LocalDateTime.ofInstant(clock.instant().truncatedTo(ChronoUnit.HOURS), ZoneOffset.UTC);
	}
}
