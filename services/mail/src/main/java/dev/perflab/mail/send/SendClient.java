package dev.perflab.mail.send;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentitySigner;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.mail.send.SentMails.OutboxJob;

/**
 * PUTs one job to the send service's internal API, the EML read from the store and carried as base64, proving it is
 * mail with an identity token it signs itself (issuer perflab-mail, audience send): send takes jobs from nobody else.
 * The client comes from Boot's builder, so each push is observed ({@code http.client.requests}) and carries the
 * trace of the send request that wrote the row.
 */
@Component
class SendClient {

	private final RestClient http;

	private final JsonMapper json;

	private final EmlStore store;

	private final RelayTraces traces;

	/** send's base URL's path ("" at the root), which the signed path starts with */
	private final String basePath;

	// a bean of every web run (perflab.identity.signing-key); absent only where no relay runs (the seeder)
	private final ObjectProvider<IdentitySigner> signer;

	SendClient(RestClient.Builder builder, JsonMapper json, EmlStore store, MailProperties properties,
			ObjectProvider<IdentitySigner> signer, RelayTraces traces) {
		MailProperties.Relay settings = properties.relay();
		JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
			.connectTimeout(settings.connectTimeout()).version(HttpClient.Version.HTTP_1_1).build());
		requests.setReadTimeout(settings.timeout());
		String base = settings.sendUrl().replaceAll("/+$", "");
		this.http = builder.clone().baseUrl(base).requestFactory(requests).build();
		this.basePath = URI.create(base).getRawPath();
		this.json = json;
		this.store = store;
		this.signer = signer;
		this.traces = traces;
	}

	/** @return the HTTP status send answered */
	int push(long outboxId, String jobId, OutboxJob job) throws IOException, InterruptedException {
		byte[] eml = Files.readAllBytes(store.resolve(job.emlPath()));
		Push body = new Push(job.mailNo(), job.office(), job.owner(), job.from(), job.to(), job.cc(), job.bcc(),
				job.separateSend(), job.receiptKeys(), Base64.getEncoder().encodeToString(eml));
		Span span = traces.push(outboxId, job.traceparent());
		try (Tracer.SpanInScope scope = traces.inScope(span)) {
			byte[] bytes = json.writeValueAsBytes(body);
			String path = this.basePath + "/internal/jobs/" + jobId;
			return http.put()
				.uri("/internal/jobs/{jobId}", jobId)
				.contentType(MediaType.APPLICATION_JSON)
				.header("X-Request-Id", "outbox-" + outboxId)
				// bound to this push: a token captured on the way repeats this job, never another one
				.header(Identity.HEADER, signer.getObject().signRequest("mail", "send", "PUT", path, bytes))
				.body(bytes)
				.exchange((request, response) -> response.getStatusCode().value());
		}
		catch (RuntimeException e) {
			span.error(e);
			throw e;
		}
		finally {
			span.end();
		}
	}

	/** the job as send takes it: named by {@code jobId} in the path, never by the mail number (which repeats) */
	record Push(long mailNo, long office, String owner, String from, List<String> to, List<String> cc, List<String> bcc,
			boolean separateSend, Map<String, String> receiptKeys, String eml) {
	}
}
