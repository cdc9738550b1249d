package dev.perflab.mail.send;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.mail.Accounts;
import dev.perflab.mail.Accounts.Account;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The send's contract: 202 with the mail's Location, each missing or mistyped field named, 413, 415, 401. */
@WebMvcTest(SendController.class)
@PlatformWeb
class SendControllerWebMvcTest {

	static final String VALID = """
			{"cert_key":"k1","sender_no":1,"to":["jerry@example.com"],"cc":["tom@example.com"],"bcc":[],
			 "subject":"136236234636","content":"contentcontent121212","important":false,"is_save":true,
			 "is_separate_send":false,"is_encrypt":false,"is_receipt_confirm":true}""";

	static final Account ALICE = new Account(1, 1, "alice@perflab.test", "alice");

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Accounts accounts;

	@MockitoBean
	Sends sends;

	@BeforeEach
	void alice() {
		given(accounts.require(new Caller("alice", "1"))).willReturn(ALICE);
		given(sends.send(eq(ALICE), any())).willReturn(new Sends.Sent(41, "d-0123456789abcdef"));
	}

	@Test
	void acceptsWith202AndTheMailsLocationTheFlagsLeftOutAsFalse() throws Exception {
		send(VALID).andExpect(status().isAccepted())
			.andExpect(header().string("Location", "/v2/mails/41"))
			.andExpect(jsonPath("$.mail_no").value(41))
			.andExpect(jsonPath("$.delivery_id").value("d-0123456789abcdef"));
		send("{\"sender_no\":1,\"to\":[\"a@example.com\"],\"subject\":\"s\",\"content\":\"c\"}")
			.andExpect(status().isAccepted());
		verify(sends).send(ALICE, new SendRequest(null, 1L, List.of("a@example.com"), null, null, "s", "c", false, false,
				false, false, false));
	}

	@Test
	void namesEachMissingOrMistypedFieldOfAValidJsonBody() throws Exception {
		send("{\"content\":\"hello\"}").andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[*].field", containsInAnyOrder("sender_no", "to", "subject")));
		send("{\"sender_no\":1,\"to\":[\"a@example.com\"],\"subject\":\"s\",\"content\":\"c\",\"important\":\"very\"}")
			.andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors.length()").value(1))
			.andExpect(jsonPath("$.errors[0].field").value("important"))
			.andExpect(jsonPath("$.errors[0].message").value("must be true or false"));
		verifyNoInteractions(sends);
	}

	@ParameterizedTest
	@ValueSource(strings = {
			"{\"sender_no\":1,\"to\":[\"a@example.com\"],\"content\":\"c\"}",
			"{\"sender_no\":1,\"to\":[\"a@example.com\"],\"subject\":\"s\",\"content\":\"c\",\"evil\":1}",
			"{\"sender_no\":\"one\",\"to\":[\"a@example.com\"],\"subject\":\"s\",\"content\":\"c\"}",
			"{\"sender_no\":1,\"to\":\"a@example.com\",",
			"{\"sender_no\":1,\"to\":[\"a@example.com\"],\"subject\":\"s\",\"content\":\"c\",\"cert_key\":\"%s\"}",
			"{\"sender_no\":1,\"to\":[\"a@example.com\"],\"subject\":\"%s\",\"content\":\"c\"}",
			"[]" })
	void refusesBadSendsBeforeTheyReachTheStore(String body) throws Exception {
		send(body.replace("\"%s\"", body.contains("cert_key") ? "\"" + "k".repeat(65) + "\"" : "\"" + "s".repeat(999) + "\""))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.startsWith("https://perflab.dev/problems/")));
		verifyNoInteractions(sends);
	}

	@Test
	void refusesOversizedBodiesNonJsonAndAnonymousCallers() throws Exception {
		send(VALID.replace("contentcontent121212", "x".repeat(1_100_000))).andExpect(problem(413, "payload-too-large"));
		mvc.perform(post("/v2/mails/send").header(Identity.HEADER, TestIdentity.user("alice", "1", "mail"))
			.contentType(MediaType.TEXT_PLAIN).content("hello")).andExpect(problem(415, "unsupported-media-type"));
		mvc.perform(post("/v2/mails/send").contentType(MediaType.APPLICATION_JSON).content(VALID))
			.andExpect(problem(401, "unauthenticated"));
		mvc.perform(post("/v2/mails/send").contentType(MediaType.APPLICATION_JSON).content(VALID)
			.header("X-Perflab-User", "alice").header("X-Perflab-Office", "1")).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(sends);
	}

	private ResultActions send(String body) throws Exception {
		return mvc.perform(post("/v2/mails/send").header(Identity.HEADER, TestIdentity.user("alice", "1", "mail"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}
}
