package dev.perflab.send;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What send does with the relay's replies per recipient: a 5xx fails that recipient for good and the others are
 * still delivered; a 4xx is retried until the relay accepts; an address no relay can take, or a conversation the relay
 * breaks off, is that recipient's alone. The relay is a scripted SMTP server on a real socket.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_send_test",
		"perflab.send.delivery.poll-interval=50ms", "perflab.send.delivery.backoff=100ms",
		"perflab.send.delivery.max-backoff=200ms" })
// closed after the class: its delivery worker must not take other classes' jobs
@DirtiesContext
class SmtpRepliesTest {

	private static final AtomicLong NUMBERS = new AtomicLong(System.currentTimeMillis() * 100 + 50);

	// greylisting: a "grey…" address is refused with 450 twice, then accepted
	private static final Map<String, AtomicInteger> GREY = new ConcurrentHashMap<>();

	static final ScriptedSmtp RELAY = relay();

	@LocalServerPort
	int port;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	TransactionTemplate transaction;

	@DynamicPropertySource
	static void smtp(DynamicPropertyRegistry registry) {
		registry.add("perflab.send.smtp.port", RELAY::port);
		TestIdentity.trust(registry, "gateway", "mail");
	}

	@AfterAll
	static void close() throws IOException {
		RELAY.close();
	}

	@Test
	void aPermanentRefusalFailsOnlyThatRecipientAndTheOthersAreDelivered() {
		long no = NUMBERS.incrementAndGet();
		String good = "good" + no + "@example.com", nobody = "nobody" + no + "@example.com";
		SendApi api = new SendApi(port);
		assertThat(api.put(no, SendApi.job("alice", List.of(good, nobody), List.of(), List.of(), false, null)).statusCode())
			.isEqualTo(201);

		Map<String, Map<?, ?>> recipients = awaitDone(api, no);
		assertThat(recipients.get(good).get("status")).isEqualTo("delivered");
		assertThat(recipients.get(nobody).get("status")).isEqualTo("failed");
		assertThat(recipients.get(nobody).get("reason")).isEqualTo("rejected");
		assertThat(recipients.get(nobody).get("attempts")).as("a 5xx is not retried").isEqualTo(1);
		assertThat(RELAY.accepted).contains(good).doesNotContain(nobody);
	}

	@Test
	void aTemporaryRefusalIsRetriedUntilTheRelayAccepts() {
		long no = NUMBERS.incrementAndGet();
		String grey = "grey" + no + "@example.com";
		SendApi api = new SendApi(port);
		assertThat(api.put(no, SendApi.job("alice", List.of(grey), List.of(), List.of(), false, null)).statusCode())
			.isEqualTo(201);

		Map<?, ?> recipient = awaitDone(api, no).get(grey);
		assertThat(recipient.get("status")).isEqualTo("delivered");
		assertThat(recipient.get("attempts")).as("two 450s, then accepted").isEqualTo(3);
		assertThat(RELAY.accepted.stream().filter(grey::equals)).hasSize(1);
	}

	@Test
	void aRecipientWhoseConversationBreaksOffDoesNotHoldBackTheRecipientsAfterIt() {
		long no = NUMBERS.incrementAndGet();
		// one message each, in address order: the relay resets the connection on "reset…" before "reset…"'s neighbour
		// "tail…" is sent (a reply code it never gave, where a refusal would have been handled per recipient already)
		String drop = "reset" + no + "@example.com", good = "tail" + no + "@example.com";
		SendApi api = new SendApi(port);
		assertThat(api.put(no, SendApi.job("alice", List.of(drop, good), List.of(), List.of(), true, null)).statusCode())
			.isEqualTo(201);

		Map<String, Map<?, ?>> recipients = awaitDone(api, no);
		assertThat(recipients.get(good).get("status")).isEqualTo("delivered");
		assertThat(recipients.get(good).get("attempts")).as("sent in the first pass, not held behind drop").isEqualTo(1);
		assertThat(recipients.get(drop).get("status")).isEqualTo("failed");
		assertThat(recipients.get(drop).get("reason")).isEqualTo("gave_up");
	}

	@Test
	void anAddressNoRelayCanTakeFailsAtOnceAndTheOthersOfItsMessageAreDelivered() {
		// a job taken before mail and send shared one address rule: its rows are still in the table
		long no = NUMBERS.incrementAndGet();
		String jobId = SendApi.jobId(no), good = "good" + no + "@example.com", raw = "raw" + no + "@[\u00fc]";
		byte[] eml = SendApi.eml("alice@perflab.test", List.of(good), List.of(), "legacy " + no);
		// one transaction: a worker polling every 50 ms must not take the job before its second recipient is written
		transaction.executeWithoutResult(status -> {
			jdbc.update("""
					INSERT INTO delivery_job (job_id, mail_no, office_no, owner, sender, separate_send, eml, digest, status,
					  next_attempt_at, created_at) VALUES (?, ?, 1, 'alice', 'alice@perflab.test', FALSE, ?, ?, 'PENDING', NOW(6), NOW(6))""",
					jobId, no, eml, "0".repeat(64));
			for (String email : List.of(good, raw)) {
				jdbc.update("INSERT INTO recipient (job_id, mail_no, email, kind, status) VALUES (?, ?, ?, 'to', 'PENDING')",
						jobId, no, email);
			}
		});

		Map<String, Map<?, ?>> recipients = awaitDone(new SendApi(port), no);
		assertThat(recipients.get(raw).get("status")).isEqualTo("failed");
		assertThat(recipients.get(raw).get("reason")).isEqualTo("invalid_address");
		assertThat(recipients.get(raw).get("attempts")).as("failed at once, never retried").isEqualTo(1);
		assertThat(recipients.get(good).get("status")).isEqualTo("delivered");
		assertThat(recipients.get(good).get("attempts")).isEqualTo(1);
		assertThat(RELAY.accepted).contains(good).noneMatch(address -> address.startsWith("raw" + no));
	}

	private static Map<String, Map<?, ?>> awaitDone(SendApi api, long no) {
		Map<String, Map<?, ?>> byEmail = new java.util.HashMap<>();
		for (Object r : (List<?>) api.awaitDone("alice", no).get("recipients")) {
			byEmail.put((String) ((Map<?, ?>) r).get("email"), (Map<?, ?>) r);
		}
		return byEmail;
	}

	private static ScriptedSmtp relay() {
		try {
			return new ScriptedSmtp(address -> {
				if (address.startsWith("reset")) {
					return null;
				}
				if (address.startsWith("nobody")) {
					return "550 5.1.1 no such user";
				}
				if (address.startsWith("grey") && GREY.computeIfAbsent(address, a -> new AtomicInteger()).incrementAndGet() <= 2) {
					return "450 4.2.0 greylisted, try again later";
				}
				return "250 OK";
			});
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}
}
