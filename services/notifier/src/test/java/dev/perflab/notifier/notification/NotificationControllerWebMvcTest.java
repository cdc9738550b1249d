package dev.perflab.notifier.notification;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** A notification is read by the caller's office only; another office's answers as one that does not exist. */
@WebMvcTest(NotificationController.class)
@PlatformWeb
class NotificationControllerWebMvcTest {

	@Autowired
	MockMvc mvc;

	@MockitoBean
	NotificationStore store;

	@Test
	void answersTheCallersOfficesNotification() throws Exception {
		given(store.find("1", 9)).willReturn(Optional.of(new NotificationView(9, "sms", "+82101234****", "guestbook",
				"SENT", 1, Instant.parse("2026-01-01T00:00:00Z"), null, Instant.parse("2026-01-01T00:00:01Z"), null)));
		read("9", "1").andExpect(status().isOk())
			.andExpect(jsonPath("$.recipient").value("+82101234****"))
			.andExpect(jsonPath("$.sent_at").value("2026-01-01T00:00:01Z"))
			.andExpect(jsonPath("$.last_error").doesNotExist());
	}

	@Test
	void anotherOfficesNotificationIsA404Problem() throws Exception {
		given(store.find("2", 9)).willReturn(Optional.empty());
		read("9", "2").andExpect(problem(404, "not-found"));
	}

	@Test
	void refusesAnIdThatIsNoPositiveNumberAndAnUnknownCaller() throws Exception {
		for (String id : new String[] { "abc", "0", "-5", "1e3" }) {
			read(id, "1").andExpect(problem(400, "invalid-path"));
		}
		mvc.perform(get("/v1/notifications/9")).andExpect(problem(401, "unauthenticated"));
		mvc.perform(get("/v1/notifications/9").header(Identity.HEADER, TestIdentity.user("alice", "1", "mail")))
			.andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(store);
	}

	private ResultActions read(String id, String office) throws Exception {
		return mvc.perform(get("/v1/notifications/" + id).header(Identity.HEADER,
				TestIdentity.user("alice", office, "notifier")));
	}
}
