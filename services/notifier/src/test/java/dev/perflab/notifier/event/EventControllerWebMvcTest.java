package dev.perflab.notifier.event;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
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
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Events' contract: 201 with Location, a title of 1 to 200 characters, 404 outside the caller's office. */
@WebMvcTest(EventController.class)
@PlatformWeb
class EventControllerWebMvcTest {

	static final QrEvent EVENT = new QrEvent(42, "Launch", "qr-42", Instant.parse("2026-01-01T00:00:00Z"));

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Events events;

	@Test
	void createsWith201AndTheEventsLocation() throws Exception {
		given(events.create("1", "alice", "Launch")).willReturn(EVENT);
		create("{\"title\":\"  Launch \"}")
			.andExpect(status().isCreated())
			.andExpect(header().string("Location", "/v1/events/42"))
			.andExpect(jsonPath("$.created_at").value("2026-01-01T00:00:00Z"));
	}

	@Test
	void refusesATitleThatIsEmptyTooLongOrUnknownFields() throws Exception {
		create("{\"title\":\"\"}").andExpect(problem(400, "invalid-field")).andExpect(jsonPath("$.errors[0].field").value("title"));
		create("{}").andExpect(problem(400, "invalid-field"));
		create("{\"title\":\"" + "t".repeat(201) + "\"}").andExpect(problem(400, "invalid-field"));
		create("{\"title\":\"a\\u0007b\"}").andExpect(problem(400, "invalid-field"));
		create("{\"title\":\"Launch\",\"office\":\"2\"}").andExpect(problem(400, "unknown-field"));
		create("{\"title\":true}").andExpect(problem(400, "invalid-field"));
		mvc.perform(post("/v1/events").header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier"))
			.contentType(MediaType.TEXT_PLAIN).content("Launch")).andExpect(problem(415, "unsupported-media-type"));
		verifyNoInteractions(events);
	}

	@Test
	void findsTheCallersOfficesEventOnly() throws Exception {
		given(events.find("1", 42)).willReturn(Optional.of(EVENT));
		given(events.find("2", 42)).willReturn(Optional.empty());
		read(42, "1").andExpect(status().isOk()).andExpect(jsonPath("$.code").value("qr-42"));
		read(42, "2").andExpect(problem(404, "not-found"));
	}

	@Test
	void refusesAnIdThatIsNoPositiveNumberAndAnUnknownCaller() throws Exception {
		for (String id : new String[] { "abc", "0", "-1", "9223372036854775808" }) {
			mvc.perform(get("/v1/events/" + id).header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier")))
				.andExpect(problem(400, "invalid-path"));
		}
		mvc.perform(get("/v1/events/42")).andExpect(problem(401, "unauthenticated"));
		mvc.perform(post("/v1/events").contentType(MediaType.APPLICATION_JSON).content("{\"title\":\"x\"}"))
			.andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(events);
	}

	private ResultActions read(long id, String office) throws Exception {
		return mvc.perform(get("/v1/events/" + id).header(Identity.HEADER, TestIdentity.user("alice", office, "notifier")));
	}

	private ResultActions create(String body) throws Exception {
		return mvc.perform(post("/v1/events").header(Identity.HEADER, TestIdentity.user("alice", "1", "notifier"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}
}
