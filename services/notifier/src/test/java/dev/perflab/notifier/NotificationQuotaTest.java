package dev.perflab.notifier;

import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.bean.override.convention.TestBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Guestbook signings send an SMS with the caller's text to any number, and sign-ups a mail to any address after
 * ~70-100 ms of BCrypt: quotas per user, per office and per recipient, counted in the database (every replica counts
 * against the same rows), refused with a 429 that writes nothing, and a sign-up refused before BCrypt.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { NotifierTestBase.TEST_DB,
		NotifierTestBase.FAST_SWEEPER_POLL, "perflab.notifier.bcrypt-strength=4", "perflab.notifier.quota.per-user=5",
		"perflab.notifier.quota.per-office=8", "perflab.notifier.quota.per-recipient=2",
		"perflab.notifier.quota.sms-per-office=6" })
class NotificationQuotaTest extends NotifierTestBase {

	static final MovableClock CLOCK = new MovableClock();

	/** every password that reached BCrypt */
	static final AtomicInteger HASHES = new AtomicInteger();

	@TestBean
	Clock clock;

	@TestBean
	PasswordEncoder memberPasswordEncoder;

	static Clock clock() {
		return CLOCK;
	}

	static PasswordEncoder memberPasswordEncoder() {
		return new CountingEncoder(new BCryptPasswordEncoder(4));
	}

	@Test
	void aNumberGetsAtMostItsQuotaWhicheverOfficeAsksAndARefusalWritesNothing() {
		String phone = phone(), mine = office(), theirs = office();
		long myEvent = api.event(mine, "mine"), theirEvent = api.event(theirs, "theirs");
		NotifierApi.expect(api.signAs(mine, "kim", myEvent, phone), 201);
		NotifierApi.expect(api.signAs(theirs, "lee", theirEvent, phone), 201);
		long entries = rows("guestbook"), notifications = rows("notification");

		HttpResponse<String> refused = api.signAs(theirs, "lee", theirEvent, phone);
		assertQuotaRefusal(refused, "recipient", 2);
		assertThat(rows("guestbook")).as("entries").isEqualTo(entries);
		assertThat(rows("notification")).as("notifications").isEqualTo(notifications);
		assertThat(counted("recipient", "", e164(phone))).as("the refusal's increment rolled back").isEqualTo(2);
		assertThat(counted("user", theirs, "lee")).isEqualTo(1);

		NotifierApi.expect(api.signAs(theirs, "lee", theirEvent, phone()), 201);
		CLOCK.advance(Duration.ofHours(1));
		NotifierApi.expect(api.signAs(mine, "kim", myEvent, phone), 201);
	}

	/**
	 * A number spelled three ways was three recipients, each with a quota of its own: one spelling, E.164, is counted
	 * and stored.
	 */
	@Test
	void aNumberSpelledAnyWayIsOneRecipientCountedAndStoredInE164() {
		String national = phone(), office = office();
		String e164 = e164(national);
		long event = api.event(office, "spellings");
		NotifierApi.expect(api.signAs(office, "kim", event, e164), 201);
		NotifierApi.expect(api.signAs(office, "kim", event, e164.substring(1)), 201);
		assertQuotaRefusal(api.signAs(office, "kim", event, "00" + e164.substring(1)), "recipient", 2);
		assertQuotaRefusal(api.signAs(office, "kim", event,
				national.substring(0, 3) + "-" + national.substring(3, 7) + "-" + national.substring(7)), "recipient", 2);
		assertQuotaRefusal(api.signAs(office, "kim", event, "+82 " + national), "recipient", 2);
		assertThat(counted("recipient", "", e164)).isEqualTo(2);
		assertThat(jdbc.sql("SELECT phone FROM guestbook WHERE event_id = ?").param(event).query(String.class).list())
			.containsExactly(e164, e164);
		assertThat(jdbc.sql("SELECT recipient FROM notification WHERE office = ?").param(office).query(String.class)
			.list()).containsExactly(e164, e164);
	}

	/** An SMS carries the caller's text to any number at the office's expense: an office's SMS have a cap of their own. */
	@Test
	void anOfficesSmsAreCappedWhicheverUserSendsThemAndMailIsNot() {
		String office = office();
		long event = api.event(office, "toll fraud");
		for (int i = 0; i < 6; i++) {
			NotifierApi.expect(api.signAs(office, i % 2 == 0 ? "kim" : "lee", event, phone()), 201);
		}
		long entries = rows("guestbook"), notifications = rows("notification");
		assertQuotaRefusal(api.signAs(office, "park", event, phone()), "sms", 6);
		assertThat(rows("guestbook")).as("entries").isEqualTo(entries);
		assertThat(rows("notification")).as("notifications").isEqualTo(notifications);
		assertThat(counted("sms", office, "")).as("the refusal's increment rolled back").isEqualTo(6);
		NotifierApi.expect(api.signUpAs(office, "park", "park" + phone() + "@example.com"), 201);
		String other = office();
		NotifierApi.expect(api.signAs(other, "park", api.event(other, "another office"), phone()), 201);
		CLOCK.advance(Duration.ofHours(1));
		NotifierApi.expect(api.signAs(office, "park", event, phone()), 201);
	}

	@Test
	void aUserAndThenTheirOfficeAreRefusedPastTheirQuotas() {
		String office = office();
		long event = api.event(office, "busy office");
		for (int i = 0; i < 5; i++) {
			NotifierApi.expect(api.signAs(office, "kim", event, phone()), 201);
		}
		assertQuotaRefusal(api.signAs(office, "kim", event, phone()), "user", 5);
		// the office's SMS end at 6 (above); its welcome mails count against its 8 notifications
		NotifierApi.expect(api.signAs(office, "lee", event, phone()), 201);
		for (int i = 0; i < 2; i++) {
			NotifierApi.expect(api.signUpAs(office, "lee", "lee" + phone() + "@example.com"), 201);
		}
		assertQuotaRefusal(api.signUpAs(office, "lee", "lee" + phone() + "@example.com"), "office", 8);
		assertQuotaRefusal(api.signAs(office, "park", event, phone()), "office", 8);
		assertThat(notificationsOf(office)).isEqualTo(8);
		// another office is not this one
		String other = office();
		NotifierApi.expect(api.signAs(other, "kim", api.event(other, "quiet office"), phone()), 201);
	}

	@Test
	void aSignUpOverQuotaIsRefusedBeforeBcryptAndWritesNothing() {
		String office = office();
		int hashes = HASHES.get();
		NotifierApi.expect(api.signUpAs(office, "lee", "lee" + phone() + "@example.com"), 201);
		assertThat(HASHES.get() - hashes).as("a sign-up within quota is hashed").isEqualTo(1);

		// another replica counted five for kim in this window: the count is the database's, not this instance's
		jdbc.sql("""
				INSERT INTO notification_quota (window_start, scope, office, subject, notifications)
				VALUES (?, 'user', ?, 'kim', 5)""")
			.params(window(CLOCK.instant()), office)
			.update();
		long members = rows("member"), notifications = rows("notification");
		hashes = HASHES.get();
		assertQuotaRefusal(api.signUpAs(office, "kim", "kim" + phone() + "@example.com"), "user", 5);
		assertThat(HASHES.get() - hashes).as("passwords that reached BCrypt for a refused sign-up").isZero();

		// an address that had its quota of mails: refused the same way, whoever asks
		String address = "park" + phone() + "@example.com";
		NotifierApi.expect(api.signUpAs(office(), "park", address), 201);
		NotifierApi.expect(api.signUpAs(office(), "park", address), 201);
		hashes = HASHES.get();
		assertQuotaRefusal(api.signUpAs(office, "lee", address), "recipient", 2);
		assertThat(HASHES.get() - hashes).isZero();
		assertThat(rows("member")).isEqualTo(members + 2);
		assertThat(rows("notification")).isEqualTo(notifications + 2);
	}

	@Test
	void concurrentRegistrationsNeverPassTheQuota() {
		String office = office();
		long event = api.event(office, "race");
		int callers = 16;
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Integer>> answers = new ArrayList<>();
		try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
			for (int i = 0; i < callers; i++) {
				String phone = phone();
				answers.add(pool.submit(() -> {
					start.await();
					return api.signAs(office, "kim", event, phone).statusCode();
				}));
			}
			// all at once: every one of them passes the precheck before any has committed, the charge decides
			start.countDown();
		}
		List<Integer> statuses = answers.stream().map(Future::resultNow).toList();
		assertThat(statuses).as("answers").filteredOn(s -> s == 201).hasSize(5);
		assertThat(statuses).as("answers").filteredOn(s -> s == 429).hasSize(callers - 5);
		assertThat(notificationsOf(office)).isEqualTo(5);
		assertThat(jdbc.sql("SELECT COUNT(*) FROM guestbook WHERE event_id = ?").param(event).query(Long.class)
			.single()).isEqualTo(5);
		assertThat(counted("user", office, "kim")).isEqualTo(5);
	}

	private void assertQuotaRefusal(HttpResponse<String> response, String scope, int limit) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(429);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		Map<?, ?> problem = NotifierApi.map(response);
		assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/notification-quota");
		assertThat(problem.get("scope")).isEqualTo(scope);
		assertThat(problem.get("limit")).isEqualTo(limit);
		long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
		assertThat(retryAfter).as("seconds until the window ends").isBetween(1L, 3600L);
	}

	private long counted(String scope, String office, String subject) {
		return jdbc.sql("""
				SELECT COALESCE(SUM(notifications), 0) FROM notification_quota
				WHERE window_start = ? AND scope = ? AND office = ? AND subject = ?""")
			.params(window(CLOCK.instant()), scope, office, subject)
			.query(Long.class)
			.single();
	}

	private long notificationsOf(String office) {
		return jdbc.sql("SELECT COUNT(*) FROM notification WHERE office = ?").param(office).query(Long.class).single();
	}

	private static LocalDateTime window(Instant now) {
		return LocalDateTime.ofInstant(now.truncatedTo(ChronoUnit.HOURS), ZoneOffset.UTC);
	}

	/** The wall clock, moved on by a test instead of waiting out a window. */
	static final class MovableClock extends Clock {

		private final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

		void advance(Duration by) {
			offset.updateAndGet(d -> d.plus(by));
		}

		@Override
		public Instant instant() {
			return Instant.now().plus(offset.get());
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}
	}

	/** The real BCrypt, counting what reaches it. */
	record CountingEncoder(PasswordEncoder bcrypt) implements PasswordEncoder {

		@Override
		public String encode(CharSequence raw) {
			HASHES.incrementAndGet();
			return bcrypt.encode(raw);
		}

		@Override
		public boolean matches(CharSequence raw, String encoded) {
			return bcrypt.matches(raw, encoded);
		}
	}
}
