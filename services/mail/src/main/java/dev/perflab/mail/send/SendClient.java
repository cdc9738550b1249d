package dev.perflab.mail.send;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Base64;
import java.util.List;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentitySigner;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.mail.send.SentMails.OutboxJob;

/**
 * PUTs one job to the send service's internal API, the EML read from the store and carried as base64, proving it is
 * mail with an identity token it signs itself (issuer perflab-mail, audience send): send takes jobs from nobody else.
 */
@Component
class SendClient {

	private final HttpClient http;

	private final JsonMapper json;

	private final EmlStore store;

	private final MailProperties.Relay settings;

	// a bean of every web run (perflab.identity.signing-key); absent only where no relay runs (the seeder)
	private final ObjectProvider<IdentitySigner> signer;

	SendClient(JsonMapper json, EmlStore store, MailProperties properties, ObjectProvider<IdentitySigner> signer) {
		this.settings = properties.relay();
		this.http = HttpClient.newBuilder().connectTimeout(settings.connectTimeout()).version(HttpClient.Version.HTTP_1_1)
			.build();
		this.json = json;
		this.store = store;
		this.signer = signer;
	}

	/** @return the HTTP status send answered */
	int push(long outboxId, OutboxJob job) throws IOException, InterruptedException {
		byte[] eml = Files.readAllBytes(store.resolve(job.emlPath()));
		Push body = new Push(job.office(), job.owner(), job.from(), job.to(), job.cc(), job.bcc(), job.separateSend(),
				job.certKey(), Base64.getEncoder().encodeToString(eml));
		HttpRequest request = HttpRequest
			.newBuilder(URI.create(settings.sendUrl().replaceAll("/+$", "") + "/internal/jobs/" + job.mailNo()))
			.timeout(settings.timeout())
			.header("Content-Type", "application/json")
			.header("X-Request-Id", "outbox-" + outboxId)
			.header(Identity.HEADER, signer.getObject().sign("mail", null, "send"))
			.PUT(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
			.build();
		return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	record Push(long office, String owner, String from, List<String> to, List<String> cc, List<String> bcc,
			boolean separateSend, String certKey, String eml) {
	}
}
