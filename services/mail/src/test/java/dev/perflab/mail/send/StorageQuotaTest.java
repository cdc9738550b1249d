package dev.perflab.mail.send;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
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
import java.util.stream.Stream;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.mail.internet.InternetAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.TestPropertySource;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.MailApi;
import dev.perflab.mail.MailServiceTest;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.smtp.MailAddress;
import dev.perflab.platform.TestClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The storage quota against real MariaDB and EML files, at 40,000 bytes of EML per office a day. Each test runs on a
 * day of its own on a clock the test moves (far from the days the other tests send on); alice and bob are both in
 * office 1.
 */
@TestPropertySource(properties = "perflab.mail.quota.stored-per-office=40000B")
class StorageQuotaTest extends MailServiceTest {

	static final long LIMIT = 40_000;

	static final Instant FIRST_DAY = Instant.parse("2101-01-01T00:00:00Z");

	static final String TEST_ROWS = "day >= '2100-12-01'";

	static final AtomicLong DAYS = new AtomicLong();

	@Autowired
	TestClock clock;

	@Autowired
	MeterRegistry meters;

	@Autowired
	SendHandoff handoff;

	@Autowired
	StorageQuota quota;

	@Autowired
	EmlStore store;

	Instant day;

	@BeforeEach
	void aDayOfItsOwn() {
		forgetTheTestDays();
		day = FIRST_DAY.plus(Duration.ofDays(DAYS.getAndIncrement()));
		clock.set(day.plus(Duration.ofHours(20)));
	}

	@AfterEach
	void forgetTheTestDays() {
		jdbc.update("DELETE FROM storage_quota WHERE " + TEST_ROWS);
		jdbc.update("DELETE FROM recipient_quota WHERE window_start >= '2100-12-01'");
	}

	@Test
	void countsTheBytesOfEveryEmlAnOfficeWritesAndRefusesTheSendThatWouldPassThemWritingNothing() {
		double refusedBefore = refusals();
		long first = sizeOf(accepted(send("alice", 1, 15_000)));
		long second = sizeOf(accepted(send("bob", 2, 15_000)));
		assertThat(used()).as("both users' EMLs, byte for byte").isEqualTo(first + second);

		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("alice", 1, 15_000), 429);
		assertThat(refused.headers().firstValue("Retry-After")).as("seconds until the UTC day ends").hasValue("14400");
		Map<?, ?> problem = MailApi.json(refused);
		assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/storage-quota");
		assertThat(problem.get("scope")).isEqualTo("storage");
		assertThat(((Number) problem.get("limit")).longValue()).isEqualTo(LIMIT);
		assertThat(refused.body()).as("nothing of what the office sent").doesNotContain(Long.toString(first + second));

		assertThat(accepted(send("alice", 1, 100)).statusCode()).as("the room that is left is usable").isEqualTo(202);
		assertThat(refusals() - refusedBefore).isEqualTo(1);
	}

	/** The body passed the early check, but its EML did not fit: refused in the send's own transaction. */
	@Test
	void aSendWhoseEmlOverrunsTheRoomLeftIsRefusedAndItsEmlDeleted() {
		long first = sizeOf(accepted(send("alice", 1, 20_000)));
		int content = (int) (LIMIT - first - 100);
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("alice", 1, content), 429);
		assertThat(MailApi.json(refused).get("type")).isEqualTo("https://perflab.dev/problems/storage-quota");
		assertThat(used()).isEqualTo(first);
	}

	@Test
	void concurrentSendersNeverPassTheQuota() throws Exception {
		long mails = count("mail_content");
		long lastBefore = jdbc.queryForObject("SELECT MAX(no) FROM mail_content", Long.class);
		int threads = 8, sendsEach = 5;
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService senders = Executors.newFixedThreadPool(threads);
		List<Future<List<Integer>>> results = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			boolean alice = t % 2 == 0;
			Callable<List<Integer>> sender = () -> {
				start.await();
				List<Integer> statuses = new ArrayList<>();
				for (int i = 0; i < sendsEach; i++) {
					statuses.add((alice ? send("alice", 1, 3_000) : send("bob", 2, 3_000)).statusCode());
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

		long accepted = statuses.stream().filter(s -> s == 202).count();
		assertThat(statuses).hasSize(40).containsOnly(202, 429);
		// a refused send's number is used up by its rolled-back row: only accepted mails are past the last one before
		long written = jdbc.queryForObject("SELECT COALESCE(SUM(size), 0) FROM mail_content WHERE no > ?", Long.class,
				lastBefore);
		assertThat(count("mail_content") - mails).as("a mail per accepted send, none for a refused one").isEqualTo(accepted);
		assertThat(used()).as("the count is the accepted mails' bytes").isEqualTo(written);
		assertThat(used()).as("never past the limit").isLessThanOrEqualTo(LIMIT);
		assertThat(LIMIT - used()).as("and filled: no room left for one more").isLessThan(written / accepted);
	}

	@Test
	void theQuotaFreesWhenTheDayTurns() {
		clock.set(day.plus(Duration.ofDays(1)).minusSeconds(30));
		accepted(send("alice", 1, 30_000));
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> send("alice", 1, 15_000), 429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");

		clock.set(clock.instant().plusSeconds(30));
		long next = sizeOf(accepted(send("alice", 1, 15_000)));
		assertThat(used()).as("the new day's count").isEqualTo(next);
	}

	@Test
	void aMailLargerThanAWholeDaysQuotaIs413() {
		HttpResponse<String> byItsBody = assertRefusedWritingNothing(() -> send("alice", 1, 45_000), 413);
		assertThat(MailApi.json(byItsBody).get("type")).isEqualTo("https://perflab.dev/problems/mail-too-large");
		assertThat(byItsBody.headers().firstValue("Retry-After")).as("no later day takes it").isEmpty();

		// a body just under the limit whose EML (headers and line ends added) is over it
		HttpResponse<String> byItsEml = assertRefusedWritingNothing(() -> send("alice", 1, (int) LIMIT - 10), 413);
		assertThat(MailApi.json(byItsEml).get("type")).isEqualTo("https://perflab.dev/problems/mail-too-large");
	}

	/** Another replica charged the day after this send's precheck: the send's own transaction refuses it. */
	@Test
	void aSendRefusedInsideItsTransactionRollsBackItsMailTagsOutboxRowAndCounts() {
		jdbc.update("INSERT INTO storage_quota (day, office_no, bytes) VALUES (?, 1, ?)", today(), LIMIT - 50);
		long mails = count("mail_content"), outbox = count("outbox"), tags = count("receipt_confirm");
		Account alice = new Account(1, 1, "alice@o1.perflab.test", "alice");
		InternetAddress jerry = MailAddress.require("to", "jerry@example.com").internetAddress();
		SendRequest request = new SendRequest(null, 1L, List.of("jerry@example.com"), null, null, "s", "c", false, true,
				false, false, true);
		Map<String, String> keys = new LinkedHashMap<>(Map.of("jerry@example.com", Sends.receiptKey()));
		Draft draft = new Draft(alice, request, "quota/none.eml", 51, List.of(jerry), List.of(), List.of(),
				new LinkedHashSet<>(keys.keySet()), UUID.randomUUID().toString(), keys);

		assertThatThrownBy(() -> handoff.commit(draft)).isInstanceOfSatisfying(ProblemException.class,
				e -> assertThat(e.getStatusCode().value()).isEqualTo(429));
		assertThat(count("mail_content")).isEqualTo(mails);
		assertThat(count("outbox")).isEqualTo(outbox);
		assertThat(count("receipt_confirm")).isEqualTo(tags);
		assertThat(used()).isEqualTo(LIMIT - 50);
		assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota WHERE window_start >= "
				+ "'2100-12-01'", Long.class)).as("the recipient counts rolled back with it").isZero();
	}

	@Test
	void purgesTheCountersOfDaysPastTheirRetention() {
		for (int daysAgo : List.of(3, 2, 1, 0)) {
			jdbc.update("INSERT INTO storage_quota (day, office_no, bytes) VALUES (?, 1, 5)", today().minusDays(daysAgo));
		}
		quota.purge();
		assertThat(jdbc.queryForList("SELECT day FROM storage_quota WHERE " + TEST_ROWS + " ORDER BY 1", LocalDate.class))
			.as("yesterday ended less than a day ago (retention 1 d); the days before it are deleted")
			.containsExactly(today().minusDays(1), today());
	}

	private HttpResponse<String> send(String user, long senderNo, int contentChars) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("sender_no", senderNo);
		body.put("to", List.of("jerry@example.com"));
		body.put("subject", "storage");
		body.put("content", "x".repeat(contentChars));
		body.put("is_save", true);
		return api.post(user, "/v2/mails/send", "application/json", MailApi.JSON.writeValueAsString(body));
	}

	private static HttpResponse<String> accepted(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
		return response;
	}

	private long sizeOf(HttpResponse<String> accepted) {
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		String path = jdbc.queryForObject("SELECT eml_path FROM mail_content WHERE no = ?", String.class, no);
		try {
			long size = Files.size(store.resolve(path));
			assertThat(jdbc.queryForObject("SELECT size FROM mail_content WHERE no = ?", Long.class, no)).isEqualTo(size);
			return size;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private HttpResponse<String> assertRefusedWritingNothing(Callable<HttpResponse<String>> call, int status) {
		long mails = count("mail_content"), outbox = count("outbox"), files = sentFiles();
		long counted = jdbc.queryForObject("SELECT COALESCE(SUM(bytes), 0) FROM storage_quota", Long.class);
		long recipients = jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota", Long.class);
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
		assertThat(sentFiles()).as("no EML left behind").isEqualTo(files);
		assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(bytes), 0) FROM storage_quota", Long.class))
			.as("no byte counted").isEqualTo(counted);
		assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota", Long.class))
			.as("no recipient counted").isEqualTo(recipients);
		return response;
	}

	private long sentFiles() {
		try (Stream<Path> files = Files.list(store.root().resolve("sent"))) {
			return files.count();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private long used() {
		return jdbc.queryForObject("SELECT COALESCE(SUM(bytes), 0) FROM storage_quota WHERE day = ? AND office_no = 1",
				Long.class, LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));
	}

	private LocalDate today() {
		return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
	}

	private double refusals() {
		return meters.get("perflab.mail.quota.refusals").tag("scope", StorageQuota.SCOPE).counter().count();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Clocks {

		@Bean
		@Primary
		TestClock testClock() {
			return new TestClock();
		}
	}
}
