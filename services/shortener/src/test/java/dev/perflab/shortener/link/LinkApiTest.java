package dev.perflab.shortener.link;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;
import dev.perflab.shortener.id.Base62;
import dev.perflab.shortener.id.Codes;
import dev.perflab.shortener.id.Snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The whole service over real HTTP against the real MongoDB-wire server and Redis of the local stack. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LinkApiTest {

	static final JsonMapper JSON = JsonMapper.builder().build();

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@LocalServerPort
	int port;

	@Autowired
	MongoTemplate mongo;

	@Autowired
	HitCounter hits;

	@Autowired
	Codes codes;

	ShortenerApi api;

	@BeforeEach
	void setUp() {
		api = new ShortenerApi(port);
		// alice's links of every earlier run today count against her daily quota in this database: start from none
		mongo.remove(Query.query(Criteria.where("day").is(Date.from(LocalDate.now(ZoneOffset.UTC).atStartOfDay()
			.toInstant(ZoneOffset.UTC)))), LinkQuota.COLLECTION);
	}

	@Test
	@SuppressWarnings("unchecked")
	void theCreateOperationDocumentsItsQuotaRefusal() {
		HttpResponse<String> docs = api.get("/v3/api-docs", null);
		assertThat(docs.statusCode()).isEqualTo(200);
		Map<String, Map<String, Map<String, Map<String, Map<String, Object>>>>> paths = (Map<String, Map<String, Map<String, Map<String, Map<String, Object>>>>>) json(
				docs).get("paths");
		Map<String, Map<String, Object>> responses = paths.get("/v1/short-links").get("post").get("responses");
		assertThat(responses).containsKeys("201", "400", "413", "429");
		assertThat((Map<String, Object>) responses.get("429").get("headers")).containsKey("Retry-After");
		assertThat((Map<String, Object>) responses.get("429").get("content")).containsKey("application/problem+json");
	}

	@Test
	void createsALinkAndRedirectsToIt() {
		HttpResponse<String> created = create("alice", "{\"url\":\"https://example.com/docs?q=1\"}");
		assertThat(created.statusCode()).isEqualTo(201);
		Map<?, ?> body = json(created);
		String code = (String) body.get("code");
		assertThat(body.get("shortUrl")).isEqualTo("http://127.0.0.1:8080/s/" + code);
		assertThat(created.headers().firstValue("Location")).hasValue("/v1/short-links/" + code);

		HttpResponse<String> redirect = api.get("/s/" + code, null);
		assertThat(redirect.statusCode()).isEqualTo(302);
		assertThat(redirect.headers().firstValue("Location")).hasValue("https://example.com/docs?q=1");
		assertThat(redirect.headers().firstValue("Cache-Control")).hasValue("max-age=30, public");
	}

	@Test
	void aCodeIsAKeyedPermutationOfItsIdNotTheIdItself() {
		String first = code(create("alice", "{\"url\":\"https://example.com/one\"}"));
		String second = code(create("alice", "{\"url\":\"https://example.com/two\"}"));
		for (String code : List.of(first, second)) {
			long id = mongo.findOne(Query.query(Criteria.where("code").is(code)), Link.class).id();
			assertThat(code).hasSize(11).isNotEqualTo(Base62.encode(id));
			assertThat(codes.idOf(code)).isEqualTo(id);
		}
		assertThat(first.substring(0, 3)).isNotEqualTo(second.substring(0, 3));
	}

	/** Codes issued before the keyed codes were plain Base62 of the Snowflake id, stored as such: they still work. */
	@Test
	void codesIssuedBeforeKeepWorking() {
		long monthAgo = System.currentTimeMillis() - java.time.Duration.ofDays(30).toMillis();
		long id = new Snowflake(3, () -> monthAgo, 50).nextId();
		String code = Base62.encode(id);
		mongo.insert(new Link(id, code, "https://example.com/old", false, "alice", "1", Instant.now(), null, 0));
		HttpResponse<String> redirect = api.get("/s/" + code, null);
		assertThat(redirect.statusCode()).isEqualTo(302);
		assertThat(redirect.headers().firstValue("Location")).hasValue("https://example.com/old");
		assertThat(json(api.get("/v1/short-links/" + code, "alice")).get("url")).isEqualTo("https://example.com/old");
		assertThat(api.delete("/v1/short-links/" + code, "alice").statusCode()).isEqualTo(204);
		assertThat(api.get("/s/" + code, null).statusCode()).isEqualTo(404);
	}

	@Test
	void permanentLinksRedirectWith301() {
		String code = code(create("alice", "{\"url\":\"https://example.com/p\",\"permanent\":true}"));
		assertThat(api.get("/s/" + code, null).statusCode()).isEqualTo(301);
	}

	@Test
	void unknownAndMalformedCodesAre404Problems() {
		for (String code : new String[] { "zzzzzzzzzz", "no-such", "x".repeat(40) }) {
			HttpResponse<String> response = api.get("/s/" + code, null);
			assertThat(response.statusCode()).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		}
	}

	@Test
	void anExpiredLinkIsGoneAndItsRedirectIsNeverCachedPastExpiry() throws Exception {
		Instant expiresAt = Instant.now().plusMillis(2_500);
		String code = code(create("alice", "{\"url\":\"https://example.com/soon\",\"expiresAt\":\"" + expiresAt + "\"}"));
		HttpResponse<String> early = api.get("/s/" + code, null);
		assertThat(early.statusCode()).isEqualTo(302);
		assertThat(early.headers().firstValue("Cache-Control").orElseThrow())
			.satisfiesAnyOf(v -> assertThat(v).isEqualTo("no-store"), v -> assertThat(v).isEqualTo("max-age=1, public"));
		// gone once expired, and no cache (Redis, the answer's max-age) keeps it alive past that
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
			.until(() -> api.get("/s/" + code, null).statusCode() == 404);
		assertThat(Instant.now()).isAfterOrEqualTo(expiresAt);
	}

	@Test
	void countsHitsInBatches() {
		String code = code(create("alice", "{\"url\":\"https://example.com/h\"}"));
		for (int i = 0; i < 5; i++) {
			api.get("/s/" + code, null);
		}
		hits.flush();
		// the scheduled flush may have taken the counts first and be writing them: wait for its write, not a sleep
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(mongo
			.findOne(org.springframework.data.mongodb.core.query.Query
				.query(org.springframework.data.mongodb.core.query.Criteria.where("code").is(code)), Link.class)
			.hits()).isEqualTo(5));
		assertThat(json(api.get("/v1/short-links/" + code, "alice")).get("hits")).isEqualTo(5);
	}

	@Test
	void anotherUsersLinkIsNotFoundAndCannotBeDeleted() {
		String code = code(create("alice", "{\"url\":\"https://example.com/mine\"}"));
		assertThat(api.get("/v1/short-links/" + code, "bob").statusCode()).isEqualTo(404);
		assertThat(api.delete("/v1/short-links/" + code, "bob").statusCode()).isEqualTo(404);
		assertThat(api.get("/s/" + code, null).statusCode()).isEqualTo(302);
	}

	@Test
	void theSameLoginInAnotherOfficeIsSomeoneElse() {
		String code = code(create("alice", "{\"url\":\"https://example.com/office-1\"}"));
		assertThat(api.asOfOffice("GET", "/v1/short-links/" + code, "alice", "2").statusCode()).isEqualTo(404);
		assertThat(api.asOfOffice("DELETE", "/v1/short-links/" + code, "alice", "2").statusCode()).isEqualTo(404);
		assertThat(api.get("/s/" + code, null).statusCode()).isEqualTo(302);
		assertThat(api.get("/v1/short-links/" + code, "alice").statusCode()).isEqualTo(200);
	}

	@Test
	void aDeletedLinkStopsRedirectingAtOnce() {
		String code = code(create("alice", "{\"url\":\"https://example.com/del\"}"));
		assertThat(api.get("/s/" + code, null).statusCode()).isEqualTo(302);
		assertThat(api.delete("/v1/short-links/" + code, "alice").statusCode()).isEqualTo(204);
		assertThat(api.get("/s/" + code, null).statusCode()).isEqualTo(404);
		assertThat(api.get("/v1/short-links/" + code, "alice").statusCode()).isEqualTo(404);
	}

	@ParameterizedTest
	@ValueSource(strings = { "javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "file:///etc/passwd",
			"ftp://example.com/x", "https://", "not a url", "//example.com/x", "http://exa mple.com",
			"https://login.corp@evil.example/", "https://user:secret@example.com/x", "https://%40@example.com/" })
	void rejectsUrlsThatAreNotHttp(String url) {
		assertRefused(create("alice", "{\"url\":" + JSON.writeValueAsString(url) + "}"), 400);
	}

	@Test
	void rejectsUrlsLongerThan2048Characters() {
		String url = "https://example.com/" + "a".repeat(2_100);
		assertRefused(create("alice", "{\"url\":\"" + url + "\"}"), 400);
	}

	/** Malformed bodies, unknown fields, a missing URL, 413 and 415: LinkControllerWebMvcTest. */
	@Test
	void rejectsAnExpiryInThePast() {
		assertRefused(create("alice", "{\"url\":\"https://example.com\",\"expiresAt\":\"2001-01-01T00:00:00Z\"}"), 400);
	}

	private void assertRefused(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(json(response).get("type").toString()).startsWith("https://perflab.dev/problems/");
		assertThat(mongo.getCollection("links").countDocuments()).isEqualTo(countBefore);
	}

	long countBefore;

	private HttpResponse<String> create(String user, String body) {
		countBefore = mongo.getCollection("links").countDocuments();
		return api.post(user, "application/json", body);
	}

	private static String code(HttpResponse<String> created) {
		assertThat(created.statusCode()).isEqualTo(201);
		return (String) json(created).get("code");
	}

	private static Map<?, ?> json(HttpResponse<String> response) {
		return JSON.readValue(response.body(), Map.class);
	}
}
