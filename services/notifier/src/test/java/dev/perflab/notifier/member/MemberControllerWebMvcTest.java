package dev.perflab.notifier.member;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Sign-up's contract: an address, a name and a password BCrypt takes whole, checked before anything is hashed. */
@WebMvcTest(MemberController.class)
@PlatformWeb
class MemberControllerWebMvcTest {

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Members members;

	@Test
	void signsUpWith201AndTheAddressLowerCased() throws Exception {
		given(members.signUp(any(), anyString(), anyString(), anyString()))
			.willReturn(new Member(5, "lee@example.com", "Lee", Instant.parse("2026-01-01T00:00:00Z"), 6L));
		signUp(member("Lee@Example.com", " Lee ", "correct horse"))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.notification_id").value(6))
			.andExpect(jsonPath("$.password").doesNotExist());
		verify(members).signUp(new Caller("alice", "1"), "lee@example.com", "Lee", "correct horse");
	}

	@Test
	void refusesBadFieldsWithProblemJsonAndHashesNothing() throws Exception {
		for (String email : new String[] { "not-an-email", "Lee <lee@example.com>",
				"lee@example.com\\r\\nBcc: x@example.com",
				// the welcome mail's To: takes printable ASCII only: mail's and send's rule (platform MailAddress)
				"lee@ex\u00e4mple.com", "l\u0085ee@example.com", "lee@[\u00fc]", "lee@localhost" }) {
			signUp(member(email, "Lee", "correct horse")).andExpect(problem(400, "invalid-field"))
				.andExpect(jsonPath("$.errors[0].field").value("email"));
		}
		signUp(member("short@example.com", "Lee", "short")).andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("password"));
		signUp(member("long@example.com", "Lee", "p".repeat(73))).andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("password"));
		// 24 characters, 72 bytes: BCrypt takes it whole
		given(members.signUp(any(), anyString(), anyString(), anyString()))
			.willReturn(new Member(5, "multi@example.com", "Lee", Instant.now(), 6L));
		signUp(member("multi@example.com", "Lee", "\u00e4".repeat(36))).andExpect(status().isCreated());
		signUp(member("multi@example.com", "Lee", "\u00e4".repeat(37))).andExpect(problem(400, "invalid-field"));
		signUp(member("noname@example.com", " ", "correct horse")).andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("name"));
		signUp("{\"email\":\"lee@example.com\",\"name\":\"Lee\",\"password\":\"correct horse\",\"role\":\"admin\"}")
			.andExpect(problem(400, "unknown-field"));
		verify(members).signUp(any(), anyString(), anyString(), anyString());
	}

	@Test
	void aTakenAddressIsA409Problem() throws Exception {
		given(members.signUp(any(), anyString(), anyString(), anyString()))
			.willThrow(new ProblemException(HttpStatus.CONFLICT, "duplicate-email", "A member with this email exists"));
		signUp(member("lee@example.com", "Lee", "correct horse")).andExpect(problem(409, "duplicate-email"));
	}

	@Test
	void refusesACallerTheGatewayDidNotVouchFor() throws Exception {
		mvc.perform(post("/v1/members").contentType(MediaType.APPLICATION_JSON)
			.content(member("lee@example.com", "Lee", "correct horse"))).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(members);
	}

	private ResultActions signUp(String body) throws Exception {
		return mvc.perform(post("/v1/members").header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}

	private static String member(String email, String name, String password) {
		return "{\"email\":\"" + email + "\",\"name\":\"" + name + "\",\"password\":\"" + password + "\"}";
	}
}
