package dev.perflab.send;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The send service over real HTTP against the local MariaDB ({@code perflab_send_test}) and a real SMTP server
 * (GreenMail, through a forwarder the tests can cut to take the relay down).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_send_test",
		"perflab.send.delivery.poll-interval=50ms", "perflab.send.delivery.backoff=100ms",
		"perflab.send.delivery.max-backoff=400ms", "perflab.send.smtp.connect-timeout=500ms",
		"perflab.send.smtp.timeout=2s" })
// closed after the class: its delivery worker must not take other classes' jobs
@DirtiesContext
class SendServiceTest {

	// mail numbers unique across runs against the same database
	private static final AtomicLong NUMBERS = new AtomicLong(System.currentTimeMillis() * 100);

	static final SmtpSwitch SMTP = smtpSwitch();

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	SendApi api;

	@DynamicPropertySource
	static void smtp(DynamicPropertyRegistry registry) {
		registry.add("perflab.send.smtp.port", SMTP::port);
		TestIdentity.trust(registry, "gateway", "mail");
	}

	@BeforeEach
	void client() {
		api = new SendApi(port);
		SMTP.on();
	}

	@AfterAll
	static void closeSwitch() throws IOException {
		SMTP.close();
	}

	@Test
	void deliversAnAcceptedJobOnceToEveryRecipientBccOnlyInTheEnvelope() {
		long no = NUMBERS.incrementAndGet();
		String to = "to" + no + "@example.com", cc = "cc" + no + "@example.com", bcc = "bcc" + no + "@example.com";
		String body = SendApi.job("alice", List.of(to), List.of(cc), List.of(bcc), false, null);

		HttpResponse<String> created = api.put(no, body);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		assertThat(created.headers().firstValue("Location")).hasValue("/v2/mails/" + SendApi.jobId(no) + "/delivery");
		HttpResponse<String> again = api.put(no, body);
		assertThat(again.statusCode()).as("the same job twice is a no-op").isEqualTo(200);
		assertThat(SendApi.json(again).get("created")).isEqualTo(false);

		Map<?, ?> delivery = awaitDone("alice", no);
		assertThat(delivery.get("status")).isEqualTo("done");
		assertThat(recipients(delivery)).extracting(r -> (Object) r.get("status")).containsOnly("delivered");
		for (String address : List.of(to, cc, bcc)) {
			List<String> inbox = Inboxes.of(address, no);
			assertThat(inbox).as(address).hasSize(1);
			assertThat(inbox.getFirst()).contains("Message-ID: <" + SendApi.jobId(no) + "@send.perflab>").doesNotContain("Bcc:");
		}
	}

	@Test
	void readReceiptsGiveEachRecipientTheirOwnMessageAndTag() {
		long no = NUMBERS.incrementAndGet();
		String jerry = "jerry" + no + "@example.com", tom = "tom" + no + "@example.com";
		assertThat(api.put(no, SendApi.job("alice", List.of(jerry, tom), List.of(), List.of(), false, "key" + no)).statusCode())
			.isEqualTo(201);

		Map<?, ?> delivery = awaitDone("alice", no);
		String status = api.delivery("alice", "/v2/mails/" + no + "/delivery").body();
		for (Map<?, ?> recipient : recipients(delivery)) {
			String email = (String) recipient.get("email");
			String key = SendApi.receiptKey("key" + no, email);
			String url = "http://127.0.0.1:8080/v2/office/1/receipt-confirm/" + key;
			assertThat(recipient.get("read_receipt")).isEqualTo(true);
			assertThat(status).as("the sender is told a receipt was asked for, never the recipient's key").doesNotContain(key);
			List<String> inbox = Inboxes.of(email, no);
			assertThat(inbox).hasSize(1);
			assertThat(inbox.getFirst()).contains("X-Perflab-Receipt-Confirm: " + url);
		}
		assertThat(recipients(delivery)).extracting(r -> (Object) r.get("message_id")).doesNotHaveDuplicates();
	}

	@Test
	void separateSendDeliversOneMessagePerRecipient() {
		long no = NUMBERS.incrementAndGet();
		List<String> to = List.of("a" + no + "@example.com", "b" + no + "@example.com", "c" + no + "@example.com");
		assertThat(api.put(no, SendApi.job("alice", to, List.of(), List.of(), true, null)).statusCode()).isEqualTo(201);
		awaitDone("alice", no);
		for (String address : to) {
			assertThat(Inboxes.of(address, no)).as(address).hasSize(1);
		}
	}

	@Test
	void aRelayThatIsDownQueuesTheJobAndDeliversItWhenItReturns() {
		SMTP.off();
		long no = NUMBERS.incrementAndGet();
		String to = "queued" + no + "@example.com";
		assertThat(api.put(no, SendApi.job("alice", List.of(to), List.of(), List.of(), false, null)).statusCode()).isEqualTo(201);

		// until it has been tried twice: while the relay is down the job is retried, not given up
		Map<?, ?> delivery = await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> SendApi.json(api.delivery("alice", "/v2/mails/" + no + "/delivery")),
					status -> ((Number) status.get("attempts")).intValue() >= 2);
		assertThat(delivery.get("status")).as("still queued while the relay is down").isNotEqualTo("done");
		assertThat(recipients(delivery).getFirst().get("reason")).isEqualTo("relay_unreachable");
		assertThat(recipients(delivery).getFirst()).as("the relay's raw reply is not shown").satisfies(r -> assertThat(r.containsKey("last_reply")).isFalse());
		assertThat(Inboxes.of(to, no)).isEmpty();

		SMTP.on();
		assertThat(awaitDone("alice", no).get("status")).isEqualTo("done");
		assertThat(Inboxes.of(to, no)).hasSize(1);
	}

	@Test
	void anotherJobUnderATakenIdIsAConflict() {
		long no = NUMBERS.incrementAndGet();
		assertThat(api.put(no, SendApi.job("alice", List.of("x" + no + "@example.com"), List.of(), List.of(), false, null))
			.statusCode()).isEqualTo(201);
		HttpResponse<String> conflict = api.put(no,
				SendApi.job("alice", List.of("y" + no + "@example.com"), List.of(), List.of(), false, null));
		assertProblem(conflict, 409);
	}

	@Test
	void aReusedMailNumberUnderANewIdIsANewJobWithItsOwnStatus() {
		// mail's database recreated: its new mail has the number of a mail send delivered before
		long no = NUMBERS.incrementAndGet();
		String older = "older" + no + "@example.com", newer = "newer" + no + "@example.com";
		assertThat(api.put(no, SendApi.job("alice", List.of(older), List.of(), List.of(), false, null)).statusCode())
			.isEqualTo(201);
		awaitDone("alice", no);
		String reseeded = SendApi.jobId(no) + "-reseeded";
		HttpResponse<String> created = api.put(reseeded, no,
				SendApi.job("alice", List.of(newer), List.of(), List.of(), false, null));
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		assertThat(SendApi.json(created).get("delivery_id")).isEqualTo(reseeded);

		Map<?, ?> byId = SendApi.json(api.delivery("alice", "/v2/mails/" + reseeded + "/delivery"));
		assertThat(byId.get("delivery_id")).isEqualTo(reseeded);
		assertThat(recipients(byId)).extracting(r -> (Object) r.get("email")).containsExactly(newer);
		Map<?, ?> older_ = SendApi.json(api.delivery("alice", "/v2/mails/" + SendApi.jobId(no) + "/delivery"));
		assertThat(recipients(older_)).extracting(r -> (Object) r.get("email")).containsExactly(older);
		Map<?, ?> byNumber = SendApi.json(api.delivery("alice", "/v2/mails/" + no + "/delivery"));
		assertThat(byNumber.get("delivery_id")).as("a number answers the newest job under it").isEqualTo(reseeded);
		api.awaitDone("alice", no);
		assertThat(Inboxes.of(newer, no)).as("the new mail is delivered").hasSize(1);
		assertThat(Inboxes.of(newer, no).getFirst()).contains("Message-ID: <" + reseeded + "@send.perflab>");
	}

	/** What Jobs decides; unknown fields, missing or out-of-range values and malformed JSON: JobControllerWebMvcTest. */
	@ParameterizedTest
	@ValueSource(strings = {
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"bad address\"],\"eml\":\"aGk=\"}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\\r\\nRCPT TO:<v@x.com>\"],\"eml\":\"aGk=\"}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"Name <a@example.com>\"],\"eml\":\"aGk=\"}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[],\"eml\":\"aGk=\"}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"not base64!\"}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"\"}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\",\"receipt_keys\":{\"a@example.com\":\"k 1\"}}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\",\"receipt_keys\":{\"b@example.com\":\"AAAAAAAAAAAAAAAAAAAAAA\"}}",
			"{\"office\":1,\"owner\":\"alice\",\"from\":\"not-an-address\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}" })
	void refusesBadJobsWithoutWritingAnything(String body) {
		long no = NUMBERS.incrementAndGet();
		long jobs = count("delivery_job"), recipients = count("recipient");
		assertProblem(api.put(no, body), 400);
		assertThat(count("delivery_job")).isEqualTo(jobs);
		assertThat(count("recipient")).isEqualTo(recipients);
	}

	@ParameterizedTest
	@ValueSource(strings = { "x@[\u00fc]", "\u00fc@example.com", "a@ex\u00e4mple.com", "\"a b\"@example.com",
			"\"\u00fc\"@example.com" })
	void refusesAddressesThatAreNotPrintableAsciiNamingTheirPlace(String address) {
		long no = NUMBERS.incrementAndGet();
		long jobs = count("delivery_job"), recipients = count("recipient");
		HttpResponse<String> refused = api.put(no,
				SendApi.job("alice", List.of("ok" + no + "@example.com"), List.of("cc" + no + "@example.com", address), List.of(),
						false, null));
		assertProblem(refused, 400);
		assertThat(SendApi.json(refused).get("type")).isEqualTo("https://perflab.dev/problems/invalid-address");
		assertThat(SendApi.json(refused).get("errors")).asString().contains("field=cc[1]");
		assertThat(count("delivery_job")).isEqualTo(jobs);
		assertThat(count("recipient")).isEqualTo(recipients);
	}

	@Test
	void takesEveryKindOfAddressMailTakes() {
		// the shapes mail's SendAndReceiptTest sends with: one rule (platform's MailAddress) decides for both
		long no = NUMBERS.incrementAndGet();
		List<String> to = List.of("Mixed.Case" + no + "@Example.COM", "plus+tag" + no + "@example.com",
				"\"quoted.local" + no + "\"@example.com", "literal" + no + "@[127.0.0.1]", "o'hara" + no + "@example.com");
		HttpResponse<String> created = api.put(no, SendApi.job("alice", to, List.of(), List.of(), false, "key" + no));
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
	}

	/** An office written another way, no caller, a bad ref, a forged identity: DeliveryControllerWebMvcTest. */
	@Test
	void deliveryStatusIsTheCallersOwn() {
		long no = NUMBERS.incrementAndGet();
		assertThat(api.put(no, SendApi.job("alice", List.of("z" + no + "@example.com"), List.of(), List.of(), false, null))
			.statusCode()).isEqualTo(201);
		assertThat(api.delivery("alice", "/v2/mails/" + no + "/delivery").statusCode()).isEqualTo(200);
		assertProblem(api.delivery("bob", "/v2/mails/" + no + "/delivery"), 404);
		assertProblem(api.delivery("ALICE", "/v2/mails/" + no + "/delivery"), 404);
		assertProblem(api.deliveryWith(TestIdentity.user("Alice", "1", "send"), "/v2/mails/" + SendApi.jobId(no) + "/delivery"), 404);
		assertProblem(api.delivery("alice", "/v2/mails/" + (no + 1_000_000) + "/delivery"), 404);
	}

	@Test
	void takesJobsFromMailsRelayOnly() {
		long jobs = count("delivery_job"), recipients = count("recipient");
		long no = NUMBERS.incrementAndGet();
		String path = "/internal/jobs/" + SendApi.jobId(no);
		String body = "{\"mail_no\":" + no + "," + SendApi.job("alice", List.of("v" + no + "@example.com"), List.of(), List.of(), false, null).substring(1);

		assertProblem(api.put(path, "application/json", body, null), 401);
		assertProblem(api.put(path, "application/json", body, null, "X-Perflab-User", "mail"), 401);
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		assertProblem(api.put(path, "application/json", body, TestIdentity.forgedMail("send", "PUT", path, bytes)), 401);
		assertProblem(api.put(path, "application/json", body, TestIdentity.mail("shortener", "PUT", path, bytes)), 401);
		// mail's own key, but bound to no request: a service's token is good for the one call it was signed for
		assertProblem(api.put(path, "application/json", body, TestIdentity.mail("send")), 401);
		assertProblem(api.put(path, "application/json", body, TestIdentity.user("alice", "1", "send")), 403);
		assertProblem(api.put(path, "application/json", body, TestIdentity.user("mail", "1", "send")), 403);
		assertThat(count("delivery_job")).isEqualTo(jobs);
		assertThat(count("recipient")).isEqualTo(recipients);
		assertProblem(api.delivery("alice", "/v2/mails/" + no + "/delivery"), 404);

		assertThat(api.put(path, "application/json", body, TestIdentity.mail("send", "PUT", path, bytes)).statusCode())
			.isEqualTo(201);
	}

	@Test
	void aCapturedRelayTokenOnlyRepeatsItsOwnCall() {
		long no = NUMBERS.incrementAndGet();
		String path = "/internal/jobs/" + SendApi.jobId(no);
		String body = "{\"mail_no\":" + no + "," + SendApi.job("alice", List.of("r" + no + "@example.com"), List.of(), List.of(), false, null).substring(1);
		String token = TestIdentity.mail("send", "PUT", path, body.getBytes(StandardCharsets.UTF_8));
		assertThat(api.put(path, "application/json", body, token).statusCode()).isEqualTo(201);
		long jobs = count("delivery_job"), recipients = count("recipient");

		// replayed as it was: the same job, already there (idempotent by its id), nothing new
		assertThat(api.put(path, "application/json", body, token).statusCode()).isEqualTo(200);
		// replayed for another job, or with another sender and recipients: refused
		long other = NUMBERS.incrementAndGet();
		String otherPath = "/internal/jobs/" + SendApi.jobId(other);
		assertProblem(api.put(otherPath, "application/json", body, token), 401);
		String forged = body.replace("r" + no + "@example.com", "victim@example.com").replace("\"alice", "\"mallory");
		assertThat(forged).isNotEqualTo(body);
		assertProblem(api.put(path, "application/json", forged, token), 401);
		assertProblem(api.put(otherPath, "application/json", forged, token), 401);
		assertThat(count("delivery_job")).isEqualTo(jobs);
		assertThat(count("recipient")).isEqualTo(recipients);
	}

	private Map<?, ?> awaitDone(String owner, long no) {
		return api.awaitDone(owner, no);
	}

	@SuppressWarnings("unchecked")
	private static List<Map<?, ?>> recipients(Map<?, ?> delivery) {
		return (List<Map<?, ?>>) delivery.get("recipients");
	}

	private long count(String table) {
		return jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
	}

	static void assertProblem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				type -> assertThat(type).startsWith("application/problem+json"));
	}

	private static SmtpSwitch smtpSwitch() {
		try {
			return new SmtpSwitch(Inboxes.SMTP_PORT);
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}
}
