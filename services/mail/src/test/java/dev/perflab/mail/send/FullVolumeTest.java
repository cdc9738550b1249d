package dev.perflab.mail.send;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.mail.MailApi;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.MailServiceTest;
import dev.perflab.mail.eml.EmlStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 44 item 3: every office's storage quota together could fill the one EML volume they share, and then each send
 * failed half-written. Nothing is mounted here: the reserve is set, when the context starts, to 1 GB more than the
 * test's EML folder has usable, so the service's own check on the real file store finds the volume full.
 */
class FullVolumeTest extends MailServiceTest {

	static final Path STORAGE = Path.of("target/mail-storage-test");

	static final long GB = 1024L * 1024 * 1024;

	@Autowired
	MailProperties properties;

	@Autowired
	EmlStore store;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void reserveMoreThanTheVolumeHasFree(DynamicPropertyRegistry registry) {
		registry.add("perflab.mail.storage-reserve", () -> (usable() + GB) + "B");
	}

	@Test
	void refusesNewMailWith507WritingNothingWhileReadsGoOn() {
		assertThat(properties.storageReserve().toBytes()).as("the reserve is past what the volume has free")
			.isGreaterThan(usable());
		double refusedBefore = refusals();
		long mails = count("mail_content"), outbox = count("outbox"), tags = count("receipt_confirm");
		long counted = jdbc.queryForObject("SELECT COALESCE(SUM(bytes), 0) FROM storage_quota", Long.class);
		long recipients = jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota", Long.class);
		Set<Path> files = files();

		for (boolean saved : List.of(true, false)) {
			HttpResponse<String> refused = send(saved);
			assertThat(refused.statusCode()).as(refused.body()).isEqualTo(507);
			assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(refused.headers().firstValue("Retry-After")).as("space comes back when an operator frees it")
				.isEmpty();
			Map<?, ?> problem = MailApi.json(refused);
			assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/mail-storage-full");
			assertThat(problem.get("status")).isEqualTo(507);
			assertThat(problem.get("title")).isEqualTo("Mail storage nearly full");
			assertThat((String) problem.get("detail")).contains("mail volume is nearly full").contains("Reading mail");
			assertThat(refused.body()).as("nothing of what is left on the volume every office shares")
				.doesNotContain(Long.toString(properties.storageReserve().toBytes()));
		}

		assertThat(count("mail_content")).as("no mail row").isEqualTo(mails);
		assertThat(count("outbox")).isEqualTo(outbox);
		assertThat(count("receipt_confirm")).isEqualTo(tags);
		assertThat(files()).as("no EML, whole or partial, in the EML folder").isEqualTo(files);
		assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(bytes), 0) FROM storage_quota", Long.class))
			.as("no byte counted against the office").isEqualTo(counted);
		assertThat(jdbc.queryForObject("SELECT COALESCE(SUM(recipients), 0) FROM recipient_quota", Long.class))
			.as("no recipient counted").isEqualTo(recipients);
		assertThat(refusals() - refusedBefore).isEqualTo(2);

		long no = visibleMail("large-22m");
		for (String read : List.of("/v2/mailboxes", "/v2/mails?size=5", "/v2/mails/" + no)) {
			HttpResponse<String> response = api.get("alice", read);
			assertThat(response.statusCode()).as(read + ": " + response.body()).isEqualTo(200);
		}
		for (String raw : List.of("/eml", "/attachments/0")) {
			HttpResponse<byte[]> response = api.bytes(api.as("alice", "/v2/mails/" + no + raw).GET());
			assertThat(response.statusCode()).as(raw).isEqualTo(200);
			assertThat(response.body()).as(raw).hasSizeGreaterThanOrEqualTo(16 * 1024 * 1024);
		}
	}

	private HttpResponse<String> send(boolean saved) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("sender_no", 1);
		body.put("to", List.of("jerry@example.com"));
		body.put("subject", "full volume");
		body.put("content", "x".repeat(2_000));
		body.put("is_save", saved);
		body.put("is_receipt_confirm", true);
		return api.post("alice", "/v2/mails/send", "application/json", MailApi.JSON.writeValueAsString(body));
	}

	/** Every file and folder under the EML folder, temporary files included. */
	private Set<Path> files() {
		try (Stream<Path> all = Files.walk(store.root())) {
			return all.collect(Collectors.toSet());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private double refusals() {
		return meters.get("perflab.mail.storage.refusals").counter().count();
	}

	private static long usable() {
		try {
			return Files.getFileStore(Files.createDirectories(STORAGE)).getUsableSpace();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
