package dev.perflab.send;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What send does with the relay's replies per recipient: a 5xx fails that recipient for good and the others are
 * still delivered; a 4xx is retried until the relay accepts. The relay is a scripted SMTP server on a real socket.
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
