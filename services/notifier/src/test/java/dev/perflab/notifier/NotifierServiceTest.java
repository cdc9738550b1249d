package dev.perflab.notifier;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The fixed design: registrations commit with their PENDING notification, the send follows after commit. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { NotifierTestBase.TEST_DB,
		NotifierTestBase.FAST_SWEEPER_POLL, NotifierTestBase.FAST_SWEEPER_GRACE, NotifierTestBase.FAST_BACKOFF,
		NotifierTestBase.FAST_MAX_BACKOFF, NotifierTestBase.FAST_SMS_TIMEOUT,
		"perflab.notifier.bcrypt-strength=4" })
class NotifierServiceTest extends NotifierTestBase {

	@Test
	void signingAGuestbookSendsTheGuestExactlyOneSms() {
		String office = office(), phone = phone();
		long event = api.event(office, "Spring meetup");
		HttpResponse<String> signed = api.sign(office, event, "Kim", "010-" + phone.substring(3, 7) + "-" + phone.substring(7),
				"congratulations");
		assertThat(signed.statusCode()).as(signed.body()).isEqualTo(201);
		Map<?, ?> entry = NotifierApi.map(signed);
		assertThat(entry.get("phone")).as("stored in E.164, without hyphens").isEqualTo(e164(phone));
		long notification = ((Number) entry.get("notification_id")).longValue();

		await().atMost(Duration.ofSeconds(10)).until(() -> api.status(office, notification).equals("SENT"));
		assertThat(SINK.count(messageId(notification))).isEqualTo(1);
		Map<?, ?> view = NotifierApi.map(api.get("/v1/notifications/" + notification, office));
		assertThat(view.get("channel")).isEqualTo("sms");
		assertThat(view.get("recipient")).as("masked as the guestbook masks it").isEqualTo(masked(phone));
		assertThat(view.get("template")).isEqualTo("guestbook-signed");
		assertThat(view.get("attempts")).isEqualTo(1);
		assertThat(view.get("sent_at")).isNotNull();
	}

	@Test
	void aNotificationShowsItsRecipientMaskedByTheGuestbooksRule() {
		String office = office(), phone = phone(), email = "lee." + phone + "@example.com";
		long event = api.event(office, "masked");
		long sms = api.signed(office, event, phone);
		Map<?, ?> page = NotifierApi.map(api.get("/v1/events/" + event + "/guestbook", office));
		Object listed = ((Map<?, ?>) ((List<?>) page.get("entries")).getFirst()).get("phone");
		HttpResponse<String> smsView = api.get("/v1/notifications/" + sms, office);
		assertThat(NotifierApi.map(smsView).get("recipient")).isEqualTo(masked(phone)).isEqualTo(listed);
		assertThat(smsView.body()).doesNotContain(phone.substring(1));

		long mail = ((Number) NotifierApi.map(NotifierApi.expect(api.post("/v1/members", office,
				NotifierApi.json(Map.of("email", email, "name", "Lee", "password", "correct horse"))), 201))
			.get("notification_id")).longValue();
		HttpResponse<String> mailView = api.get("/v1/notifications/" + mail, office);
		assertThat(NotifierApi.map(mailView).get("recipient")).isEqualTo("l***@example.com");
		assertThat(mailView.body()).doesNotContain(email).doesNotContain(phone.substring(1));
		// the provider still gets the whole number and address: only the read is masked
		await().atMost(Duration.ofSeconds(10)).until(() -> SINK.count(messageId(sms)) == 1);
		await().atMost(Duration.ofSeconds(10)).until(() -> NotifierApi.mails(email, mail).size() == 1);
	}

	@Test
	void aFailedAttemptShowsACategoryNeverTheProvidersReply() {
		String office = office(), sinkPort = String.valueOf(SINK.port());
		long event = api.event(office, "provider errors");
		SINK.down();
		long unreachable = api.signed(office, event, phone());
		HttpResponse<String> down = await().atMost(Duration.ofSeconds(10))
			.until(() -> api.get("/v1/notifications/" + unreachable, office),
					r -> NotifierApi.map(r).get("last_error") != null);
		assertThat(NotifierApi.map(down).get("last_error")).isEqualTo("provider-unreachable");
		// the provider's own words (its address, its answer) stay in the row for operators, never reach a caller
		assertThat(down.body()).doesNotContain(sinkPort).doesNotContain("no answer").doesNotContain("Exception");
		assertThat(lastError(unreachable)).contains("no answer from").contains(sinkPort);

		SINK.up();
		SINK.failureRate(1);
		long refused = api.signed(office, event, phone());
		HttpResponse<String> unavailable = await().atMost(Duration.ofSeconds(10))
			.until(() -> api.get("/v1/notifications/" + refused, office),
					r -> NotifierApi.map(r).get("last_error") != null);
		assertThat(NotifierApi.map(unavailable).get("last_error")).isEqualTo("provider-unavailable");
		assertThat(unavailable.body()).doesNotContain("HTTP 503").doesNotContain("provider unavailable");
		assertThat(lastError(refused)).startsWith("HTTP 503").contains("provider unavailable");
		SINK.failureRate(0);
	}

	private String lastError(long notification) {
		return jdbc.sql("SELECT last_error FROM notification WHERE id = ?").param(notification).query(String.class)
			.single();
	}

	@Test
	void theSmsLeavesOnlyAfterTheRegistrationCommitted() {
		String office = office(), phone = phone();
		long event = api.event(office, "after commit");
		Map<String, Boolean> committedAtSend = new ConcurrentHashMap<>();
		SINK.onDelivery(id -> committedAtSend.put(id, committedGuestbookRows(e164(phone)) == 1));
		long notification = api.signed(office, event, phone);
		await().atMost(Duration.ofSeconds(10)).until(() -> committedAtSend.containsKey(messageId(notification)));
		assertThat(committedAtSend.get(messageId(notification))).as("the entry was committed when the SMS arrived")
			.isTrue();
	}

	@Test
	void pagesTheGuestbookNewestFirstWithPhonesMasked() {
		String office = office();
		long event = api.event(office, "paged");
		List<String> phones = new ArrayList<>();
		for (int i = 0; i < 23; i++) {
			phones.add(phone());
			api.signed(office, event, phones.getLast());
		}
		Map<?, ?> first = NotifierApi.map(NotifierApi.expect(api.get("/v1/events/" + event + "/guestbook", office), 200));
		assertThat((List<?>) first.get("entries")).hasSize(20);
		assertThat(first.get("has_next")).isEqualTo(true);
		Map<?, ?> newest = (Map<?, ?>) ((List<?>) first.get("entries")).getFirst();
		assertThat(newest.get("phone")).isEqualTo(masked(phones.getLast()));
		Map<?, ?> second = NotifierApi.map(api.get("/v1/events/" + event + "/guestbook?page=1", office));
		assertThat((List<?>) second.get("entries")).hasSize(3);
		assertThat(second.get("has_next")).isEqualTo(false);
		assertThat(api.get("/v1/events/" + event + "/guestbook?page=-1", office).statusCode()).isEqualTo(400);
		assertThat(api.get("/v1/events/" + event + "/guestbook?page=x", office).statusCode()).isEqualTo(400);
	}

	@Test
	void signsUpAMemberWithABcryptHashAndMailsExactlyOneWelcome() {
		String office = office(), email = "m" + phone() + "@example.com";
		HttpResponse<String> created = api.post("/v1/members", office,
				NotifierApi.json(Map.of("email", email.toUpperCase(), "name", "Lee", "password", "correct horse")));
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		Map<?, ?> member = NotifierApi.map(created);
		assertThat(member.get("email")).isEqualTo(email);
		assertThat(created.body()).doesNotContain("password");
		String hash = jdbc.sql("SELECT password_hash FROM member WHERE office = ? AND email = ?").params(office, email)
			.query(String.class).single();
		assertThat(hash).startsWith("$2a$").doesNotContain("correct horse");
		assertThat(new BCryptPasswordEncoder().matches("correct horse", hash)).isTrue();

		long notification = ((Number) member.get("notification_id")).longValue();
		await().atMost(Duration.ofSeconds(10)).until(() -> api.status(office, notification).equals("SENT"));
		await().atMost(Duration.ofSeconds(5)).until(() -> NotifierApi.mails(email, notification).size() == 1);
		String mail = NotifierApi.mails(email, notification).getFirst();
		assertThat(mail).contains("Message-ID: <notification-" + notification + "@notifier.perflab>")
			.contains("Subject: Welcome to perflab, Lee");
	}

	@Test
	void refusesASecondMemberWithTheSameEmailAndWritesNothing() {
		String office = office(), email = "d" + phone() + "@example.com";
		String body = NotifierApi.json(Map.of("email", email, "name", "Lee", "password", "correct horse"));
		NotifierApi.expect(api.post("/v1/members", office, body), 201);
		long members = rows("member"), notifications = rows("notification");
		HttpResponse<String> again = api.post("/v1/members", office, body);
		assertThat(again.statusCode()).isEqualTo(409);
		assertThat(again.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(NotifierApi.map(again).get("type")).isEqualTo("https://perflab.dev/problems/duplicate-email");
		assertThat(rows("member")).isEqualTo(members);
		assertThat(rows("notification")).isEqualTo(notifications);
		// the same address in another office is another member
		assertThat(api.post("/v1/members", office(), body).statusCode()).isEqualTo(201);
	}

	/** Bad fields, bad ids, unknown fields, 413 and 401 never reach a store: the controllers' WebMvcTests. */
	@Test
	void refusesSigningAnUnknownOrAnotherOfficesEventAndWritesNoRow() {
		String office = office();
		long foreign = api.event(office(), "another office's");
		String ok = "congratulations";
		long entries = rows("guestbook"), notifications = rows("notification");
		for (String path : List.of("/v1/events/999999999999/guestbook", "/v1/events/" + foreign + "/guestbook")) {
			HttpResponse<String> response = api.post(path, office, sign("Kim", phone(), ok));
			assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat((String) NotifierApi.map(response).get("type")).startsWith("https://perflab.dev/problems/");
		}
		assertThat(rows("guestbook")).isEqualTo(entries);
		assertThat(rows("notification")).isEqualTo(notifications);
	}

	@Test
	void anotherOfficesEventsAndNotificationsAreNotFound() {
		String office = office(), other = office();
		long event = api.event(office, "mine");
		long notification = api.signed(office, event, phone());
		assertThat(api.get("/v1/events/" + event, other).statusCode()).isEqualTo(404);
		assertThat(api.get("/v1/events/" + event + "/guestbook", other).statusCode()).isEqualTo(404);
		assertThat(api.get("/v1/notifications/" + notification, other).statusCode()).isEqualTo(404);
		assertThat(api.get("/v1/notifications/" + notification, office).statusCode()).isEqualTo(200);
	}

	@Test
	void notificationsWaitWhileTheProviderIsDownAndAllGoOutOnceWhenItIsBack() {
		String office = office();
		long event = api.event(office, "provider down");
		SINK.down();
		List<Long> notifications = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			long started = System.nanoTime();
			notifications.add(api.signed(office, event, phone()));
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("registration does not wait for the provider")
				.isLessThan(Duration.ofSeconds(1));
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> notifications.stream()
			.allMatch(n -> ((Number) NotifierApi.map(api.get("/v1/notifications/" + n, office)).get("attempts")).intValue() >= 2));
		assertThat(notifications).allSatisfy(n -> assertThat(api.status(office, n)).isEqualTo("PENDING"));
		SINK.up();
		await().atMost(Duration.ofSeconds(15)).until(() -> notifications.stream().allMatch(n -> api.status(office, n).equals("SENT")));
		assertThat(notifications).allSatisfy(n -> assertThat(SINK.count(messageId(n))).isEqualTo(1));
	}

	@Test
	void theSweeperSendsWhatACrashLeftPending() {
		String office = office();
		long event = api.event(office, "crash");
		Instant past = Instant.now().minusSeconds(60);
		// committed with its registration, then the process died before the dispatch ran (attempts 0, grace over)
		List<Long> orphans = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			orphans.add(pending(office, phone(), 0, past));
		}
		// claimed by a sender that died mid-send: its lease ran out
		orphans.add(pending(office, phone(), 1, past));
		await().atMost(Duration.ofSeconds(10)).until(() -> orphans.stream().allMatch(n -> api.status(office, n).equals("SENT")));
		assertThat(orphans).allSatisfy(n -> assertThat(SINK.count(messageId(n))).isEqualTo(1));
		assertThat(event).isPositive();
	}

	private long pending(String office, String phone, int attempts, Instant due) {
		var key = new org.springframework.jdbc.support.GeneratedKeyHolder();
		jdbc.sql("""
				INSERT INTO notification (office, channel, recipient, template, body, status, attempts, next_attempt_at)
				VALUES (?, 'SMS', ?, 'guestbook-signed', 'left behind', 'PENDING', ?, ?)""")
			.params(office, phone, attempts, Timestamp.from(due))
			.update(key);
		return key.getKey().longValue();
	}

	/** Counted over a connection of its own: sees only what was committed. */
	static int committedGuestbookRows(String phone) {
		try (Connection c = DriverManager.getConnection(
				"jdbc:mysql://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_MYSQL_PORT", "13306") + "/perflab_notifier_test",
				"perflab", "perflab");
				PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM guestbook WHERE phone = ?")) {
			ps.setString(1, phone);
			try (ResultSet rs = ps.executeQuery()) {
				rs.next();
				return rs.getInt(1);
			}
		}
		catch (SQLException e) {
			throw new IllegalStateException(e);
		}
	}

	private static String sign(String name, String phone, String message) {
		return NotifierApi.json(Map.of("name", name, "phone", phone, "message", message));
	}
}
