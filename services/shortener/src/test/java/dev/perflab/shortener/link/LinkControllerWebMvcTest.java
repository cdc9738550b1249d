package dev.perflab.shortener.link;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import dev.perflab.identity.Identity;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The contract of /v1/short-links without the stores: statuses, problem bodies, the caller it acts for. */
@WebMvcTest(LinkController.class)
@PlatformWeb
class LinkControllerWebMvcTest {

	static final Caller ALICE = new Caller("alice", "1");

	static final LinkResponse LINK = new LinkResponse("0000000abcd", "http://127.0.0.1:8080/s/0000000abcd",
			"https://example.com/docs", false, Instant.parse("2026-01-01T00:00:00Z"), null, 0L);

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Links links;

	@Test
	void createsALinkWith201AndItsLocationInCamelCase() throws Exception {
		given(links.create(eq(ALICE), any())).willReturn(LINK);
		create(as("alice"), "{\"url\":\"https://example.com/docs\",\"permanent\":false}")
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", "/v1/short-links/0000000abcd"))
			.andExpect(jsonPath("$.shortUrl").value("http://127.0.0.1:8080/s/0000000abcd"))
			.andExpect(jsonPath("$.createdAt").value("2026-01-01T00:00:00Z"))
			.andExpect(jsonPath("$.expiresAt").doesNotExist());
		verify(links).create(ALICE, new CreateLinkRequest("https://example.com/docs", null, false));
	}

	@Test
	void refusesCallsWithoutAVerifiedCaller() throws Exception {
		create(post("/v1/short-links"), "{\"url\":\"https://example.com\"}").andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(links);
	}

	@Test
	void aDirectCallCannotMakeItselfAnyone() throws Exception {
		String body = "{\"url\":\"https://example.com/forged\"}";
		// the headers every service trusted before the identity token: any pod could send them
		create(post("/v1/short-links").header("X-Perflab-User", "alice").header("X-Perflab-Office", "1"),
				body).andExpect(problem(401, "unauthenticated"));
		// the gateway's issuer and claims, signed with a key the shortener does not trust
		create(with(TestIdentity.forgedUser("alice", "1", "shortener")), body).andExpect(problem(401, "unauthenticated"));
		// a real gateway token, addressed to another service: replaying it here proves nothing
		create(with(TestIdentity.user("alice", "1", "mail")), body).andExpect(problem(401, "unauthenticated"));
		// mail's own identity is not a user's
		create(with(TestIdentity.mail("shortener")), body).andExpect(problem(401, "unauthenticated"));
		create(with("bnVsbA.e30.AA"), body).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(links);

		given(links.create(eq(ALICE), any())).willReturn(LINK);
		create(as("alice").header("X-Perflab-User", "mallory"), body).andExpect(status().isCreated());
		verify(links).create(eq(ALICE), any());
	}

	@Test
	void rejectsMalformedJsonUnknownFieldsAndMistypedValues() throws Exception {
		create(as("alice"), "{\"url\":").andExpect(problem(400, "malformed-body"));
		create(as("alice"), "[]").andExpect(problem(400, "malformed-body"));
		create(as("alice"), "{\"url\":\"https://example.com\",\"expires\":\"2030-01-01T00:00:00Z\"}")
			.andExpect(problem(400, "unknown-field"))
			.andExpect(jsonPath("$.errors[0].field").value("expires"));
		create(as("alice"), "{\"url\":\"https://example.com\",\"expiresAt\":\"yesterday\"}")
			.andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("expiresAt"));
		create(as("alice"), "{\"url\":\"https://example.com\",\"expiresAt\":\"\"}").andExpect(problem(400, "invalid-field"));
		create(as("alice"), "{\"url\":12}").andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("url"));
		verifyNoInteractions(links);
	}

	@Test
	void rejectsAMissingOrBlankUrl() throws Exception {
		for (String body : new String[] { "{}", "{\"url\":\"\"}", "{\"url\":\"  \"}", "{\"url\":null}" }) {
			create(as("alice"), body).andExpect(problem(400, "invalid-field"))
				.andExpect(jsonPath("$.errors[0].field").value("url"));
		}
		verifyNoInteractions(links);
	}

	@Test
	void rejectsBodiesOver16KbWith413() throws Exception {
		create(as("alice"), "{\"url\":\"https://example.com/" + "a".repeat(17_000) + "\"}")
			.andExpect(problem(413, "payload-too-large"));
		verifyNoInteractions(links);
	}

	@Test
	void rejectsNonJsonBodiesWith415() throws Exception {
		mvc.perform(as("alice").contentType(MediaType.TEXT_PLAIN).content("https://example.com"))
			.andExpect(problem(415, "unsupported-media-type"));
		verifyNoInteractions(links);
	}

	@Test
	void describesTheCallersLinkAnd404sAnyOther() throws Exception {
		given(links.describe(ALICE, "0000000abcd")).willReturn(LINK);
		given(links.describe(new Caller("bob", "1"), "0000000abcd")).willThrow(ProblemException.notFound("No short link"));
		mvc.perform(get("/v1/short-links/0000000abcd").header(Identity.HEADER, TestIdentity.user("alice", "1", "shortener")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.code").value("0000000abcd"))
			.andExpect(jsonPath("$.hits").value(0));
		mvc.perform(get("/v1/short-links/0000000abcd").header(Identity.HEADER,
				TestIdentity.user("bob", "1", "shortener"))).andExpect(problem(404, "not-found"));
		mvc.perform(get("/v1/short-links/0000000abcd")).andExpect(problem(401, "unauthenticated"));
	}

	@Test
	void deletesWith204AndAnswersAnUnknownCodeWith404() throws Exception {
		willThrow(ProblemException.notFound("No short link")).given(links).delete(ALICE, "zzz");
		mvc.perform(delete("/v1/short-links/0000000abcd").header(Identity.HEADER,
				TestIdentity.user("alice", "1", "shortener")))
			.andExpect(status().isNoContent());
		verify(links).delete(ALICE, "0000000abcd");
		mvc.perform(delete("/v1/short-links/zzz").header(Identity.HEADER,
				TestIdentity.user("alice", "1", "shortener"))).andExpect(problem(404, "not-found"));
	}

	private static MockHttpServletRequestBuilder as(String user) {
		return with(TestIdentity.user(user, "1", "shortener"));
	}

	private static MockHttpServletRequestBuilder with(String token) {
		return post("/v1/short-links").header(Identity.HEADER, token);
	}

	private ResultActions create(MockHttpServletRequestBuilder request, String body) throws Exception {
		return mvc.perform(request.contentType(MediaType.APPLICATION_JSON).content(body));
	}
}
