package dev.perflab.e2e;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.FileSystemResource;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentityKeys;
import dev.perflab.identity.IdentitySigner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod that reaches a service without passing the gateway (the running stack's shortener and send ports): the
 * identity headers every service trusted before, a user's bearer token, or the gateway's identity for another
 * service make it nobody; only the gateway's identity for that very service works.
 */
class DirectCallsTest {

	static final String SHORTENER = "http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_SHORTENER_PORT", "8084");

	static final String SEND = "http://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_SEND_PORT", "8082");

	static final Path KEYS = Path.of(System.getenv().getOrDefault("PERFLAB_IDENTITY_DIR",
			System.getProperty("user.dir") + "/../.run/jwt/identity"));

	// the dev key the running gateway signs with (scripts/lib/jwt.sh keys)
	static final IdentitySigner GATEWAY = new IdentitySigner(Identity.GATEWAY,
			IdentityKeys.privateKey(new FileSystemResource(KEYS.resolve("gateway.key"))), Duration.ofSeconds(60),
			Clock.systemUTC());

	static final String LINK = "{\"url\":\"https://example.com/direct\"}";

	@Test
	void aSpoofedUserHeaderMakesADirectCallerNobody() {
		assertUnauthorized(createLink(r -> r.header("X-Perflab-User", "alice").header("X-Perflab-Office", "1")));
		assertUnauthorized(createLink(r -> r.header("Authorization", "Bearer " + DevTokens.token("alice", "1"))));
		assertUnauthorized(createLink(r -> r.header(Identity.HEADER, GATEWAY.sign("alice", "1", "mail"))));

		HttpResponse<String> genuine = createLink(r -> r.header(Identity.HEADER, GATEWAY.sign("alice", "1", "shortener")));
		assertThat(genuine.statusCode()).as(genuine.body()).isEqualTo(201);
	}

	@Test
	void nobodyButMailCreatesDeliveryJobs() {
		String path = SEND + "/internal/jobs/" + (System.currentTimeMillis() * 100);
		String job = "{\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}";

		assertUnauthorized(putJob(path, job, r -> r.header("X-Perflab-User", "mail")));
		HttpResponse<String> user = putJob(path, job, r -> r.header(Identity.HEADER, GATEWAY.sign("alice", "1", "send")));
		assertThat(user.statusCode()).as(user.body()).isEqualTo(403);
	}

	private static HttpResponse<String> createLink(java.util.function.UnaryOperator<HttpRequest.Builder> headers) {
		return Gateway.send(headers.apply(HttpRequest.newBuilder(URI.create(SHORTENER + "/v1/short-links"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(LINK))));
	}

	private static HttpResponse<String> putJob(String url, String body,
			java.util.function.UnaryOperator<HttpRequest.Builder> headers) {
		return Gateway.send(headers.apply(HttpRequest.newBuilder(URI.create(url))
			.header("Content-Type", "application/json")
			.PUT(HttpRequest.BodyPublishers.ofString(body))));
	}

	private static void assertUnauthorized(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
		assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
	}
}
