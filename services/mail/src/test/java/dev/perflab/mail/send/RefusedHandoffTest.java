package dev.perflab.mail.send;

import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
 * A hand-off send refuses for good (here a 409) is dead-lettered: not retried, counted, and told by the mail's
 * hand-off status; a hand-off send takes is named by its own id, which the 202 answered.
 */
class RefusedHandoffTest extends MailServiceTest {

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

	@Test
	void aRefusedHandoffIsDeadLetteredAndVisible() throws Exception {
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json",
				"{\"sender_no\":1,\"to\":[\"refused@example.com\"],\"subject\":\"s\",\"content\":\"c\"}");
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		String deliveryId = (String) MailApi.json(accepted).get("delivery_id");
		assertThat(deliveryId).matches("[0-9a-f-]{36}");
		Map<?, ?> queued = MailApi.json(api.get("alice", "/v2/mails/" + no + "/handoff"));
		assertThat(queued.get("state")).isEqualTo("queued");
		assertThat(queued.get("delivery_id")).isEqualTo(deliveryId);

		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		HttpServer send = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		send.createContext("/internal/jobs/", exchange -> {
			exchange.sendResponseHeaders(409, -1);
			exchange.close();
		});
		send.start();
		try {
			OutboxRelay relay = relay(send.getAddress().getPort(), meters);
			long outboxId = jdbc.queryForObject("SELECT id FROM outbox WHERE job_id = ?", Long.class, deliveryId);
			relay.process(new OutboxRelay.Row(outboxId, deliveryId,
					jdbc.queryForObject("SELECT payload FROM outbox WHERE id = ?", String.class, outboxId), 1));
			relay.housekeeping();
		}
		finally {
			send.stop(0);
		}

		Map<String, Object> row = jdbc.queryForMap("SELECT dead_at, sent_at, next_attempt_at FROM outbox WHERE job_id = ?", deliveryId);
		assertThat(row.get("dead_at")).as("dead-lettered, not retried").isNotNull();
		assertThat(row.get("sent_at")).isNull();
		assertThat(meters.get("perflab.mail.outbox.pushes").tag("result", "dead").counter().count()).isEqualTo(1);
		assertThat(meters.get("perflab.mail.outbox.dead").gauge().value()).isGreaterThanOrEqualTo(1);
		Map<?, ?> handoff = MailApi.json(api.get("alice", "/v2/mails/" + no + "/handoff"));
		assertThat(handoff.get("state")).isEqualTo("refused");
		assertThat(handoff.get("reason")).isEqualTo("refused_by_send_409");
		assertThat(api.get("bob", "/v2/mails/" + no + "/handoff").statusCode()).as("the owner's only").isEqualTo(404);
	}

	private OutboxRelay relay(int port, SimpleMeterRegistry meters) {
		MailProperties.Relay settings = new MailProperties.Relay(false, "http://127.0.0.1:" + port, 1, 1,
				Duration.ofHours(1), Duration.ofSeconds(30), Duration.ofMillis(500), Duration.ofSeconds(30),
				Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofDays(1));
		MailProperties local = new MailProperties(properties.listCount(), properties.emlRead(), properties.storage(),
				properties.storageReserve(), properties.maxPageSize(), properties.maxBodyChars(), properties.sendHandoff(),
				settings, properties.quota());
		SendClient client = new SendClient(RestClient.builder(), json, store, local,
				new StaticListableBeanFactory(Map.of("signer", TestIdentity.mailSigner())).getBeanProvider(IdentitySigner.class),
				new RelayTraces(io.micrometer.tracing.Tracer.NOOP, io.micrometer.tracing.propagation.Propagator.NOOP));
		return new OutboxRelay(jdbcClient, tx, client, json, local, quota, storage, emls, meters);
	}
}
