package dev.perflab.mail.send;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.client.RestClient;

import dev.perflab.identity.IdentitySigner;
import dev.perflab.mail.MailApi;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.MailServiceTest;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An unsaved send's EML ({@code is_save: false}) is deleted once send answered that it holds the job, never before,
 * and a release cut short at any step is finished by the relay's loop. Real MariaDB and EML files; send is a local
 * HTTP server answering what each test tells it.
 */
class UnsavedEmlTest extends MailServiceTest {

	@Autowired
	JdbcClient jdbcClient;

	@Autowired
	TransactionTemplate tx;

	@Autowired
	JsonMapper json;

	@Autowired
	MailProperties properties;

	@Autowired
	EmlStore store;

	@Autowired
	RecipientQuota quota;

	@Autowired
	StorageQuota storage;

	@Autowired
	UnsavedEmls emls;

	final AtomicInteger answer = new AtomicInteger(201);

	HttpServer send;

	SimpleMeterRegistry meters;

	OutboxRelay relay;

	@BeforeEach
	void aSendService() throws IOException {
		send = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		send.createContext("/internal/jobs/", exchange -> {
			exchange.getRequestBody().readAllBytes();
			exchange.sendResponseHeaders(answer.get(), -1);
			exchange.close();
		});
		send.start();
		meters = new SimpleMeterRegistry();
		relay = relay(send.getAddress().getPort());
	}

	@AfterEach
	void stop() {
		send.stop(0);
	}

	@Test
	void deletesAnUnsavedMailsEmlOnlyOnceSendHoldsItsCopy() {
		Sent sent = send(false);
		assertThat(sent.eml()).exists();

		answer.set(503);
		relay.process(sent.row());
		answer.set(500);
		relay.process(sent.row());
		assertThat(sent.eml()).as("send has not taken it: the relay still needs the file").exists();
		assertThat(queued(sent.no())).isFalse();

		answer.set(201);
		relay.process(sent.row());
		assertThat(sent.eml()).as("send answered that the job and its EML are committed").doesNotExist();
		assertThat(emlPath(sent.no())).as("the row says the file is gone").isEmpty();
		assertThat(queued(sent.no())).isFalse();
		assertThat(meters.get("perflab.mail.eml.released").counter().count()).isEqualTo(1);
		Map<?, ?> handoff = MailApi.json(api.get("alice", "/v2/mails/" + sent.no() + "/handoff"));
		assertThat(handoff.get("state")).as("the hand-off stays visible").isEqualTo("handed_over");
	}

	@Test
	void keepsASavedMailsEml() {
		Sent sent = send(true);
		relay.process(sent.row());
		assertThat(jdbc.queryForObject("SELECT sent_at FROM outbox WHERE id = ?", Timestamp.class, sent.row().id())).isNotNull();
		assertThat(sent.eml()).as("in the sender's Sent mailbox").exists();
		assertThat(api.get("alice", "/v2/mails/" + sent.no() + "/eml").statusCode()).isEqualTo(200);
		assertThat(queued(sent.no())).isFalse();
	}

	@Test
	void keepsTheEmlOfAHandoffSendRefusedForGood() {
		Sent sent = send(false);
		answer.set(409);
		relay.process(sent.row());
		relay.housekeeping();
		assertThat(jdbc.queryForObject("SELECT dead_at FROM outbox WHERE id = ?", Timestamp.class, sent.row().id())).isNotNull();
		assertThat(sent.eml()).as("kept for an operator, who may hand it over again").exists();
	}

	/** The relay died after the commit that marked the row sent, before it deleted anything. */
	@Test
	void theLoopFinishesAReleaseCutShortBeforeTheFileWasDeleted() {
		Sent sent = send(false);
		markedSentByARelayThatThenDied(sent);
		assertThat(sent.eml()).exists();

		relay.housekeeping();
		assertThat(sent.eml()).doesNotExist();
		assertThat(emlPath(sent.no())).isEmpty();
		assertThat(queued(sent.no())).isFalse();
		relay.housekeeping();
		assertThat(queued(sent.no())).as("a second round finds nothing left to do").isFalse();
	}

	/** The relay died after deleting the file, before the rows said so. */
	@Test
	void theLoopFinishesAReleaseCutShortAfterTheFileWasDeleted() throws IOException {
		Sent sent = send(false);
		markedSentByARelayThatThenDied(sent);
		Files.delete(sent.eml());

		relay.housekeeping();
		assertThat(emlPath(sent.no())).isEmpty();
		assertThat(queued(sent.no())).isFalse();
	}

	@Test
	void aReleaseJustQueuedIsLeftToTheRelayThatPushedIt() {
		Sent sent = send(false);
		tx.executeWithoutResult(status -> {
			jdbc.update("UPDATE outbox SET sent_at = ? WHERE id = ?", Timestamp.from(Instant.now()), sent.row().id());
			emls.queue(sent.row().id());
		});
		relay.housekeeping();
		assertThat(sent.eml()).as("its pusher deletes it in a moment").exists();
		emls.releaseAfterPush(sent.row().id());
		assertThat(sent.eml()).doesNotExist();
		assertThat(queued(sent.no())).isFalse();
	}

	@Test
	void aFileThatCannotBeDeletedStaysQueuedAndIsRetried() throws IOException {
		Sent sent = send(false);
		markedSentByARelayThatThenDied(sent);
		// a non-empty directory where the file was: the delete fails
		Files.delete(sent.eml());
		Files.createDirectories(sent.eml());
		Files.writeString(sent.eml().resolve("blocker"), "x");

		relay.housekeeping();
		assertThat(queued(sent.no())).as("kept for a later round").isTrue();
		assertThat(emlPath(sent.no())).isNotEmpty();
		assertThat(jdbc.queryForObject("SELECT queued_at FROM eml_release WHERE mail_no = ?", Timestamp.class, sent.no()))
			.as("moved to the back of the queue").isAfter(Timestamp.from(Instant.now().minusSeconds(60)));

		Files.delete(sent.eml().resolve("blocker"));
		jdbc.update("UPDATE eml_release SET queued_at = ? WHERE mail_no = ?", Timestamp.from(Instant.now().minusSeconds(3600)),
				sent.no());
		relay.housekeeping();
		assertThat(sent.eml()).doesNotExist();
		assertThat(queued(sent.no())).isFalse();
	}

	/**
	 * A relay whose lease ran out mid-push pushes the row again after another relay handed it over and deleted its
	 * EML: the missing file must not dead-letter a mail send already holds.
	 */
	@Test
	void aLatePushOfAMailAlreadyHandedOverLeavesItHandedOver() {
		Sent sent = send(false);
		OutboxRelay.Row stale = sent.row();
		relay.process(sent.row());
		assertThat(sent.eml()).doesNotExist();

		relay.process(stale);
		Map<String, Object> row = jdbc.queryForMap("SELECT sent_at, dead_at FROM outbox WHERE id = ?", stale.id());
		assertThat(row.get("dead_at")).as("not refused: send has it").isNull();
		assertThat(row.get("sent_at")).isNotNull();
		assertThat(meters.get("perflab.mail.outbox.pushes").tag("result", "dead").counter().count()).isZero();
		assertThat(MailApi.json(api.get("alice", "/v2/mails/" + sent.no() + "/handoff")).get("state")).isEqualTo("handed_over");
	}

	private void markedSentByARelayThatThenDied(Sent sent) {
		tx.executeWithoutResult(status -> {
			jdbc.update("UPDATE outbox SET sent_at = ? WHERE id = ?", Timestamp.from(Instant.now()), sent.row().id());
			emls.queue(sent.row().id());
		});
		// a lease ago: no relay is still at it
		jdbc.update("UPDATE eml_release SET queued_at = ? WHERE mail_no = ?", Timestamp.from(Instant.now().minusSeconds(60)),
				sent.no());
		assertThat(queued(sent.no())).isTrue();
	}

	private Sent send(boolean save) {
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json",
				"{\"sender_no\":1,\"to\":[\"jerry@example.com\"],\"subject\":\"unsaved\",\"content\":\"c\",\"is_save\":" + save + "}");
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		String deliveryId = (String) MailApi.json(accepted).get("delivery_id");
		Map<String, Object> outbox = jdbc.queryForMap("SELECT id, payload FROM outbox WHERE job_id = ?", deliveryId);
		return new Sent(no, store.resolve(emlPath(no)),
				new OutboxRelay.Row((Long) outbox.get("id"), deliveryId, (String) outbox.get("payload"), 1));
	}

	private String emlPath(long no) {
		return jdbc.queryForObject("SELECT eml_path FROM mail_content WHERE no = ?", String.class, no);
	}

	private boolean queued(long no) {
		return jdbc.queryForObject("SELECT COUNT(*) FROM eml_release WHERE mail_no = ?", Long.class, no) > 0;
	}

	private OutboxRelay relay(int port) {
		MailProperties.Relay settings = new MailProperties.Relay(false, "http://127.0.0.1:" + port, 1, 64,
				Duration.ofHours(1), Duration.ofSeconds(30), Duration.ofMillis(500), Duration.ofSeconds(30),
				Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofDays(1));
		MailProperties local = new MailProperties(properties.listCount(), properties.emlRead(), properties.storage(),
				properties.storageReserve(), properties.maxPageSize(), properties.maxBodyChars(), properties.sendHandoff(),
				settings, properties.quota());
		SendClient client = new SendClient(RestClient.builder(), json, store, local,
				new StaticListableBeanFactory(Map.of("signer", TestIdentity.mailSigner())).getBeanProvider(IdentitySigner.class),
				new RelayTraces(Tracer.NOOP, Propagator.NOOP));
		UnsavedEmls counted = new UnsavedEmls(jdbcClient, tx, store, meters);
		return new OutboxRelay(jdbcClient, tx, client, json, local, quota, storage, counted, meters);
	}

	private record Sent(long no, Path eml, OutboxRelay.Row row) {
	}
}
