package dev.perflab.gateway;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edge's bearer-token check over real HTTP: every refusal is a 401 problem+json that never reaches the service,
 * and what does reach it is the caller the gateway verified, as an identity token the service can check.
 */
class EdgeAuthTest extends GatewayTestSupport {

	@Test
	void forwardsTheVerifiedCallerAsASignedIdentityAndDropsClientIdentityHeaders() {
		String user = user();
		HttpResponse<String> response = send(get("/v1/short-links/abc").header("Authorization", "Bearer " + Tokens.valid(user, "7"))
			.header("X-Perflab-User", "mallory")
			.header("X-Perflab-Office", "666")
			.header("X-Perflab-Identity", "forged")
			.header("X-Perflab-Admin", "true"));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.body()).contains("\"user\":\"" + user + "\"", "\"office\":\"7\"", "\"spoof\":null",
				"\"forwardedUser\":null");
		assertThat(response.body()).doesNotContain("identityError");
	}

	@Test
	void refusesEveryTokenThatIsNotAValidAccessTokenForPerflab() {
		long now = Instant.now().getEpochSecond();
		String user = user();
		String path = "/v1/short-links/" + user;
		Map<String, String> refused = new LinkedHashMap<>();
		refused.put("no token", null);
		refused.put("not a JWT", "garbage");
		refused.put("three dots of nothing", "a.b.c");
		refused.put("a JSON null header", "bnVsbA.e30.AA");
		refused.put("signed by a key nobody trusts", Tokens.token(Tokens.OTHER_KEYS.getPrivate(), c -> c.subject(user)));
		refused.put("another issuer", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.issuer("https://other.issuer")));
		refused.put("expired an hour ago", Tokens.token(Tokens.KEYS.getPrivate(),
				c -> c.expirationTime(Date.from(Instant.ofEpochSecond(now - 3600)))));
		refused.put("no expiry", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.expirationTime(null)));
		refused.put("not valid for another hour", Tokens.token(Tokens.KEYS.getPrivate(),
				c -> c.notBeforeTime(Date.from(Instant.ofEpochSecond(now + 3600)))));
		refused.put("no audience", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.audience((String) null)));
		refused.put("another audience", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.audience("billing")));
		refused.put("no typ", Tokens.token(Tokens.KEYS.getPrivate(), null, c -> {
		}));
		refused.put("an ID token's typ", Tokens.token(Tokens.KEYS.getPrivate(), new JOSEObjectType("id+jwt"), c -> {
		}));
		refused.put("no office", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.claim("office", null)));
		refused.put("an office that is not a name", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.claim("office", "1\r\nX: y")));
		refused.put("a subject that is not a name", Tokens.token(Tokens.KEYS.getPrivate(), c -> c.subject("a b")));
		refused.put("alg none", Tokens.b64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + Tokens.b64("{\"iss\":\""
				+ Tokens.ISSUER + "\",\"aud\":\"perflab\",\"sub\":\"x\",\"office\":\"1\",\"exp\":" + (now + 600) + "}") + ".");
		refused.put("HS256 keyed with the public key", hs256WithThePublicKey(now));
		for (Map.Entry<String, String> each : refused.entrySet()) {
			HttpRequest.Builder request = get(path);
			String token = each.getValue();
			HttpResponse<String> response = send(token == null ? request : request.header("Authorization", "Bearer " + token));
			assertThat(response.statusCode()).as(each.getKey()).isEqualTo(401);
			assertThat(response.headers().firstValue("Content-Type")).as(each.getKey()).hasValue("application/problem+json");
			assertThat(response.headers().firstValue("WWW-Authenticate")).as(each.getKey())
				.hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
			assertThat(response.body()).as(each.getKey())
				.contains("\"type\":\"https://perflab.dev/problems/unauthenticated\"")
				.doesNotContain("Exception", "\tat ");
		}
		assertThat(UPSTREAM.hits("GET " + path)).isZero();
	}

	@Test
	void acceptsEitherKeyOfARotationAndRfc9068AccessTokens() {
		String user = user();
		for (String token : List.of(Tokens.token(Tokens.NEXT_KEYS.getPrivate(), c -> c.subject(user)),
				Tokens.token(Tokens.KEYS.getPrivate(), new JOSEObjectType("at+jwt"), c -> c.subject(user)),
				Tokens.token(Tokens.KEYS.getPrivate(), c -> c.subject(user).audience(List.of("billing", "perflab"))),
				Tokens.token(Tokens.KEYS.getPrivate(), c -> c.subject(user).claim("office", 3)))) {
			HttpResponse<String> response = send(get("/v1/short-links/rotation").header("Authorization", "Bearer " + token));
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(response.body()).contains("\"user\":\"" + user + "\"");
		}
	}

	@Test
	void refusesSubjectsAndOfficesThatAreNotCanonicalNamingTheRule() {
		java.net.http.HttpClient client = from("127.0.0.21");
		Map<String, String> refused = new LinkedHashMap<>();
		refused.put("upper case", Tokens.valid("Alice", "1"));
		refused.put("a plus", Tokens.valid("alice+tag@example.com", "1"));
		refused.put("65 characters", Tokens.valid("a".repeat(65), "1"));
		refused.put("empty", Tokens.valid("", "1"));
		refused.put("non-ASCII", Tokens.valid("al\u0131ce", "1"));
		Map<String, Object> offices = new LinkedHashMap<>();
		offices.put("a leading zero", "01");
		offices.put("a sign", "+1");
		offices.put("zero", "0");
		offices.put("negative", -1);
		offices.put("above 2^31-1", "2147483648");
		offices.put("a fraction", 1.5);
		offices.put("a whole number written as a decimal", 1.0);
		offices.put("a name", "hq");
		offices.put("blank-padded", " 1");
		String user = user();
		for (Map.Entry<String, Object> office : offices.entrySet()) {
			refused.put("office " + office.getKey(),
					Tokens.token(Tokens.KEYS.getPrivate(), c -> c.subject(user).claim("office", office.getValue())));
		}
		for (Map.Entry<String, String> each : refused.entrySet()) {
			HttpResponse<String> response = send(client,
					get("/v1/short-links/canonical").header("Authorization", "Bearer " + each.getValue()));
			assertThat(response.statusCode()).as(each.getKey()).isEqualTo(401);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(response.body()).as(each.getKey())
				.contains("\"type\":\"https://perflab.dev/problems/unauthenticated\"")
				.containsAnyOf("sub must be 1-64 characters of a-z, 0-9",
						"office must be a whole number from 1 to 2147483647");
		}
		assertThat(UPSTREAM.hits("GET /v1/short-links/canonical")).isZero();
	}

	@Test
	void acceptsCanonicalSubjectsAndOfficesUpToTheirLimits() {
		String longest = user() + "-" + "x".repeat(64 - 10);
		for (String token : List.of(Tokens.valid(longest, "2147483647"), Tokens.valid("a.b_c@d-e.example", "1"),
				Tokens.token(Tokens.KEYS.getPrivate(), c -> c.subject("bob").claim("office", 2147483647L)))) {
			HttpResponse<String> response = send(from("127.0.0.22"),
					get("/v1/short-links/canonical-ok").header("Authorization", "Bearer " + token));
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		}
		assertThat(longest).hasSize(64);
	}

	@Test
	void aServiceIdentityTokenIsNoBearerTokenAtTheEdge() throws Exception {
		// the gateway's own identity token (another key, another typ, no perflab audience) replayed from inside
		String identity = Tokens.token(Tokens.IDENTITY_KEYS.getPrivate(), new JOSEObjectType("perflab-identity+jwt"),
				c -> c.issuer("perflab-gateway").audience("shortener"));
		assertThat(send(get("/v1/short-links/x").header("Authorization", "Bearer " + identity)).statusCode()).isEqualTo(401);
	}

	private static String hs256WithThePublicKey(long now) {
		try {
			JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(Tokens.ISSUER)
				.audience("perflab")
				.subject("mallory")
				.claim("office", "1")
				.expirationTime(Date.from(Instant.ofEpochSecond(now + 600)))
				.build();
			SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).type(JOSEObjectType.JWT).build(), claims);
			jwt.sign(new MACSigner(Tokens.KEYS.getPublic().getEncoded()));
			return jwt.serialize();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}
}
