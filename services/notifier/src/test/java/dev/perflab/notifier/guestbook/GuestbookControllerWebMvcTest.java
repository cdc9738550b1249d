package dev.perflab.notifier.guestbook;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.notifier.NotifierProperties;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The guestbook's contract: every field checked before anything is written, pages by number. */
@WebMvcTest(GuestbookController.class)
@PlatformWeb
@EnableConfigurationProperties(NotifierProperties.class)
class GuestbookControllerWebMvcTest {

	static final String OK = "congratulations";

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Guestbook guestbook;

	@Test
	void signsWith201AndThePhoneInE164() throws Exception {
		given(guestbook.sign(any(), anyLong(), anyString(), anyString(), anyString()))
			.willReturn(new Entry(9, 7, "Kim", "+821012345678", OK, Instant.parse("2026-01-01T00:00:00Z"), 11L));
		sign("/v1/events/7/guestbook", sign(" Kim ", "010-1234-5678", OK))
			.andExpect(status().isCreated())
			.andExpect(jsonPath("$.event_id").value(7))
			.andExpect(jsonPath("$.notification_id").value(11));
		verify(guestbook).sign(new Caller("alice", "1"), 7, "Kim", "+821012345678", OK);
	}

	@Test
	void refusesBadFieldsWithProblemJsonAndSignsNothing() throws Exception {
		String path = "/v1/events/7/guestbook";
		for (String phone : new String[] { "12ab", "0101234567890123", "+0101234567", "0001012345678", "+82",
				"+82+1012345678", "010.1234.5678" }) {
			sign(path, sign("Kim", phone, OK)).andExpect(problem(400, "invalid-field"))
				.andExpect(jsonPath("$.errors[0].field").value("phone"));
		}
		sign(path, sign("Kim", "01012345678", "x".repeat(501))).andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("message"));
		sign(path, sign("Kim", "01012345678", "")).andExpect(problem(400, "invalid-field"));
		sign(path, sign("", "01012345678", OK)).andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("name"));
		sign(path, sign("K\\u0000im", "01012345678", OK)).andExpect(problem(400, "invalid-field"));
		sign(path, sign("x".repeat(51), "01012345678", OK)).andExpect(problem(400, "invalid-field"));
		sign(path, sign("Kim", "01012345678", "y".repeat(20_000))).andExpect(problem(413, "payload-too-large"));
		sign("/v1/events/abc/guestbook", sign("Kim", "01012345678", OK)).andExpect(problem(400, "invalid-path"));
		sign("/v1/events/0/guestbook", sign("Kim", "01012345678", OK)).andExpect(problem(400, "invalid-path"));
		sign(path, "{\"name\":").andExpect(problem(400, "malformed-body"));
		sign(path, "{\"name\":\"Kim\",\"phone\":\"01012345678\",\"message\":\"a\",\"admin\":true}")
			.andExpect(problem(400, "unknown-field"))
			.andExpect(jsonPath("$.errors[0].field").value("admin"));
		verifyNoInteractions(guestbook);
	}

	@Test
	void refusesACallerTheGatewayDidNotVouchFor() throws Exception {
		mvc.perform(post("/v1/events/7/guestbook").contentType(MediaType.APPLICATION_JSON)
			.content(sign("Kim", "01012345678", OK))).andExpect(problem(401, "unauthenticated"));
		mvc.perform(get("/v1/events/7/guestbook")).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(guestbook);
	}

	@Test
	void pagesTheCallersOfficeFromPageZero() throws Exception {
		given(guestbook.page(anyString(), anyLong(), anyInt(), anyInt())).willReturn(new Page(7, 0, 20, false, List.of()));
		mvc.perform(get("/v1/events/7/guestbook").header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.has_next").value(false));
		mvc.perform(get("/v1/events/7/guestbook?page=3").header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier")))
			.andExpect(status().isOk());
		verify(guestbook).page("1", 7, 0, 20);
		verify(guestbook).page(org.mockito.ArgumentMatchers.eq("1"), org.mockito.ArgumentMatchers.eq(7L),
				org.mockito.ArgumentMatchers.eq(3), anyInt());
	}

	@Test
	void refusesAPageThatIsNoNumber() throws Exception {
		for (String page : new String[] { "abc", "1.5", "99999999999" }) {
			mvc.perform(get("/v1/events/7/guestbook?page=" + page).header(Identity.HEADER,
					TestIdentity.user("alice", "1", "notifier"))).andExpect(problem(400, "invalid-page"));
		}
		verifyNoInteractions(guestbook);
	}

	private ResultActions sign(String path, String body) throws Exception {
		return mvc.perform(post(path).header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}

	private static String sign(String name, String phone, String message) {
		return "{\"name\":\"" + name + "\",\"phone\":\"" + phone + "\",\"message\":\"" + message + "\"}";
	}
}
