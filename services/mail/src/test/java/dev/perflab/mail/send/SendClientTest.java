package dev.perflab.mail.send;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.util.unit.DataSize;
import org.springframework.web.client.RestClient;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentitySigner;
import dev.perflab.identity.InvalidIdentityException;
import dev.perflab.identity.VerifiedIdentity;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The relay's push proves it comes from mail: a token send verifies, for send only. */
class SendClientTest {

	@TempDir
	Path storage;

	@Test
	void signsEveryPushAsMailForSend() throws Exception {
		AtomicReference<String> identity = new AtomicReference<>();
		HttpServer send = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		AtomicReference<String> path = new AtomicReference<>();
		send.createContext("/internal/jobs/", exchange -> {
			identity.set(exchange.getRequestHeaders().getFirst(Identity.HEADER));
			path.set(exchange.getRequestURI().getPath());
			exchange.sendResponseHeaders(201, -1);
			exchange.close();
		});
		send.start();
		try {
			Files.writeString(storage.resolve("1.eml"), "Subject: hi\r\n\r\nhello\r\n");
			MailProperties.Relay relay = new MailProperties.Relay(true,
					"http://127.0.0.1:" + send.getAddress().getPort(), 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(30),
					Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(5),
					Duration.ofDays(1));
			MailProperties properties = new MailProperties(MailProperties.ListCount.NOT_EXISTS,
					MailProperties.EmlRead.STREAMING, storage, DataSize.ofBytes(0), 100, 1000, MailProperties.SendHandoff.OUTBOX, relay,
					new MailProperties.Quota(0, 0, Duration.ofDays(1), DataSize.ofBytes(0)));
			SendClient client = new SendClient(RestClient.builder(), JsonMapper.builder().build(),
					new EmlStore(properties, new SimpleMeterRegistry()), properties,
					new StaticListableBeanFactory(Map.of("signer", TestIdentity.mailSigner()))
						.getBeanProvider(IdentitySigner.class),
					new RelayTraces(Tracer.NOOP, Propagator.NOOP));

			int status = client.push(7, "3f1c5a8e-0b7d-4c1e-9a55-2b6d8f0e4a11", new SentMails.OutboxJob(42, 1, "alice",
					"alice@perflab.test", List.of("jerry@example.com"), List.of(), List.of(), "1.eml", false, null, Map.of(),
					null));

			assertThat(status).isEqualTo(201);
			assertThat(path.get()).as("the job is named by its hand-off id, not the mail number")
				.isEqualTo("/internal/jobs/3f1c5a8e-0b7d-4c1e-9a55-2b6d8f0e4a11");
			VerifiedIdentity verified = TestIdentity.verifier("send", "gateway", "mail").verify(identity.get());
			assertThat(verified.issuer()).isEqualTo(Identity.MAIL);
			assertThat(verified.subject()).isEqualTo("mail");
			assertThatThrownBy(() -> TestIdentity.verifier("shortener", "gateway", "mail").verify(identity.get()))
				.as("addressed to send, worth nothing elsewhere").isInstanceOf(InvalidIdentityException.class);
		}
		finally {
			send.stop(0);
		}
	}
}
