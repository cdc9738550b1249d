package dev.perflab.send.delivery;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.platform.TestIdentity;
import dev.perflab.send.SendProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job that takes far longer than its lease is still delivered once to each recipient: its worker renews the lease
 * while it works, so neither the housekeeping of two send instances nor the second instance's claims ever take it
 * from a worker that is alive. The relay is a real SMTP server on a socket that answers each
 * message only after a delay; the lease is 6 s (a third of it, the heartbeat's period, leaves 4 s for a busy machine's
 * stalled commit or pause before a renewal is late); the service's own worker and a second {@link DeliveryWorker} (a second
 * instance: its own claim loop, housekeeping and pool) run side by side against the one database. Without the renewal
 * the job is re-queued every 6 s and sent again by whichever worker claims it.
 */
@SpringBootTest(properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_send_test",
		"perflab.send.delivery.poll-interval=50ms", "perflab.send.delivery.lease=6s",
		"perflab.send.delivery.backoff=100ms", "perflab.send.delivery.max-backoff=200ms",
		// the relay's 13 s answer is the case, not a relay to give up on
		"perflab.send.smtp.timeout=30s" })
// closed after the class: its delivery worker must not take other classes' jobs
@DirtiesContext
class LeaseRenewalTest {

	static final SlowSmtp RELAY = slowSmtp();

	@DynamicPropertySource
	static void smtp(DynamicPropertyRegistry registry) {
		registry.add("perflab.send.smtp.port", RELAY::port);
		TestIdentity.trust(registry, "gateway", "mail");
	}

	@AfterAll
	static void close() throws IOException {
		RELAY.close();
	}

	@Autowired
	DeliveryStore store;

	@Autowired
	SmtpRelay relay;

	@Autowired
	SendProperties properties;

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	TransactionTemplate transaction;

	/**
	 * 300 recipients with read receipts, one message each, at 50 ms a message: about 15 s, two and a half leases.
	 * Each recorded message renews the lease.
	 */
	@Test
	void aJobOutlastingItsLeaseIsDeliveredOnceToEachRecipientWhileASecondInstanceClaims() {
		RELAY.delay = Duration.ofMillis(50);
		int recipients = 300;
		String run = run();
		List<List<String>> messages = deliver(run, recipients, true);

		Map<String, Long> perRecipient = messages.stream()
			.flatMap(List::stream)
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
		assertThat(messages.size()).as("messages the relay took for the job's %d recipients (one each)", recipients)
			.isEqualTo(recipients);
		assertThat(perRecipient).hasSize(recipients);
		assertThat(perRecipient.values()).as("messages per recipient").containsOnly(1L);
		assertThat(claims(run)).as("claimed once: the lease never ran out while its worker was sending").isOne();
		assertThat(recipients(run)).hasSize(recipients)
			.allSatisfy(r -> assertThat(r).containsEntry("status", "DELIVERED").containsEntry("attempts", 1));
	}

	/**
	 * A plain mail is one SMTP transaction to all its recipients, here one the relay answers after 13 s, two leases
	 * and more:
	 * no outcome is recorded meanwhile, and the worker's heartbeat alone keeps the lease.
	 */
	@Test
	void oneMessageThatOutlastsTheLeaseIsSentOnce() {
		RELAY.delay = Duration.ofSeconds(13);
		int recipients = 20;
		String run = run();
		List<List<String>> messages = deliver(run, recipients, false);

		assertThat(messages).as("one message to all %d recipients, sent once", recipients).hasSize(1);
		assertThat(messages.getFirst()).hasSize(recipients);
		assertThat(claims(run)).as("claimed once: the lease never ran out while the relay held the message").isOne();
		assertThat(recipients(run)).hasSize(recipients)
			.allSatisfy(r -> assertThat(r).containsEntry("status", "DELIVERED").containsEntry("attempts", 1));
	}

	/** this test's job ids, deleted after it */
	private final List<String> runs = new ArrayList<>();

	private String run() {
		String run = "lease-" + UUID.randomUUID().toString().substring(0, 13);
		runs.add(run);
		return run;
	}

	/**
	 * Writes a job with {@code recipients} recipients and waits until it is done while a second instance runs beside
	 * the service's own worker; the job's rows are deleted afterwards.
	 *
	 * @param receipts a read receipt each (one message per recipient), else one message to all
	 * @return the envelopes of the messages the relay took for this job
	 */
	private List<List<String>> deliver(String run, int recipients, boolean receipts) {
		DeliveryWorker second = new DeliveryWorker(store, relay, properties, new SimpleMeterRegistry());
		second.start();
		try {
			insertJob(run, recipients, receipts);
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
				.until(() -> "DONE".equals(jdbc.queryForObject("SELECT status FROM delivery_job WHERE job_id = ?",
						String.class, run)));
		}
		finally {
			second.stop();
		}
		return RELAY.messages.stream()
			.filter(envelope -> envelope.stream().anyMatch(address -> address.startsWith(run)))
			.toList();
	}

	private int claims(String run) {
		return jdbc.queryForObject("SELECT attempts FROM delivery_job WHERE job_id = ?", Integer.class, run);
	}

	private List<Map<String, Object>> recipients(String run) {
		return jdbc.queryForList("SELECT status, attempts FROM recipient WHERE job_id = ?", run);
	}

	@AfterEach
	void deleteJobs() {
		for (String run : runs) {
			jdbc.update("DELETE FROM recipient WHERE job_id = ?", run);
			jdbc.update("DELETE FROM delivery_job WHERE job_id = ?", run);
		}
	}

	/** One transaction: a worker polling every 50 ms must not take the job before all its recipients are written. */
	private void insertJob(String run, int recipients, boolean receipts) {
		List<String> to = new ArrayList<>();
		for (int i = 0; i < recipients; i++) {
			to.add(String.format(Locale.ROOT, "%s-%03d@example.com", run, i));
		}
		long no = System.currentTimeMillis() * 100 + 77;
		byte[] eml = eml("alice@perflab.test", to.getFirst(), "lease " + no);
		Timestamp now = Timestamp.from(Instant.now());
		transaction.executeWithoutResult(status -> {
			jdbc.update("""
					INSERT INTO delivery_job (job_id, mail_no, office_no, owner, sender, separate_send, eml, digest, status,
					  next_attempt_at, created_at) VALUES (?, ?, 1, 'alice', 'alice@perflab.test', FALSE, ?, ?, 'PENDING', ?, ?)""",
					run, no, eml, "0".repeat(64), now, now);
			for (String email : to) {
				jdbc.update("""
						INSERT INTO recipient (job_id, mail_no, email, kind, status, receipt_key)
						VALUES (?, ?, ?, 'to', 'PENDING', ?)""", run, no, email,
						receipts ? UUID.randomUUID().toString().replace("-", "") : null);
			}
		});
	}

	private static SlowSmtp slowSmtp() {
		try {
			return new SlowSmtp();
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
	}

	/** A small EML, built as mail builds one. */
	private static byte[] eml(String from, String to, String subject) {
		try {
			MimeMessage message = new MimeMessage(Session.getInstance(new Properties()));
			message.setFrom(new InternetAddress(from));
			message.addRecipient(Message.RecipientType.TO, new InternetAddress(to));
			message.setSubject(subject, "UTF-8");
			message.setText("lease renewal", "UTF-8");
			message.saveChanges();
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			message.writeTo(out);
			return out.toByteArray();
		}
		catch (MessagingException | IOException e) {
			throw new IllegalStateException(e);
		}
	}

	/**
	 * A minimal SMTP server on a real socket that accepts every recipient and answers each message's DATA only after
	 * {@code delay}: a slow relay. It records the envelope of every message it accepted.
	 */
	static final class SlowSmtp implements AutoCloseable {

		private final ServerSocket server;

		volatile Duration delay = Duration.ofMillis(100);

		final List<List<String>> messages = new CopyOnWriteArrayList<>();

		SlowSmtp() throws IOException {
			this.server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
			Thread.ofPlatform().daemon().name("slow-smtp").start(this::accept);
		}

		int port() {
			return server.getLocalPort();
		}

		private void accept() {
			while (!server.isClosed()) {
				try {
					Socket socket = server.accept();
					Thread.ofVirtual().start(() -> session(socket));
				}
				catch (IOException e) {
					// closed
				}
			}
		}

		private void session(Socket socket) {
			try (socket;
					BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
					PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.US_ASCII)) {
				reply(out, "220 slow ESMTP");
				List<String> recipients = new ArrayList<>();
				String line;
				while ((line = in.readLine()) != null) {
					String command = line.length() >= 4 ? line.substring(0, 4).toUpperCase(Locale.ROOT) : line;
					switch (command) {
						case "EHLO", "HELO" -> reply(out, "250 slow");
						case "MAIL" -> {
							recipients.clear();
							reply(out, "250 OK");
						}
						case "RCPT" -> {
							recipients.add(line.substring(line.indexOf('<') + 1, line.indexOf('>')));
							reply(out, "250 OK");
						}
						case "DATA" -> {
							reply(out, "354 go ahead");
							while ((line = in.readLine()) != null && !line.equals(".")) {
								// the message itself does not matter here
							}
							Thread.sleep(delay);
							messages.add(List.copyOf(recipients));
							reply(out, "250 OK queued");
						}
						case "QUIT" -> {
							reply(out, "221 bye");
							return;
						}
						default -> reply(out, "250 OK");
					}
				}
			}
			catch (IOException | InterruptedException | RuntimeException e) {
				// the client hung up
			}
		}

		private static void reply(PrintWriter out, String line) {
			out.print(line + "\r\n");
			out.flush();
		}

		@Override
		public void close() throws IOException {
			server.close();
		}
	}
}
