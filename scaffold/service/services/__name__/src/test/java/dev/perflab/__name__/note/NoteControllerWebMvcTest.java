package dev.perflab.__name__.note;

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
import dev.perflab.platform.Caller;
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

/** The notes API's contract without the store: 201 with Location, the office's own note, the 400s and the 401. */
@WebMvcTest(NoteController.class)
@PlatformWeb
class NoteControllerWebMvcTest {

	static final Note NOTE = new Note(7, "hello", "alice", Instant.parse("2026-01-01T00:00:00Z"));

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Notes notes;

	@Test
	void answersTheCreatedNoteWithItsLocation() throws Exception {
		given(notes.create(new Caller("alice", "1"), "hello")).willReturn(NOTE);
		create("{\"text\":\"hello\"}").andExpect(status().isCreated())
			.andExpect(header().string("Location", "/v1/__name__/notes/7"))
			.andExpect(jsonPath("$.created_by").value("alice"));
	}

	@Test
	void anotherOfficesNoteIsA404Problem() throws Exception {
		given(notes.find("2", 7)).willReturn(Optional.empty());
		mvc.perform(get("/v1/__name__/notes/7").header(Identity.HEADER, TestIdentity.user("alice", "2", "__name__")))
			.andExpect(problem(404, "not-found"));
	}

	@Test
	void refusesBadBodiesWithProblemDetailsAndCallsNothing() throws Exception {
		create("{\"text\":\" \"}").andExpect(problem(400, "invalid-field"));
		create("{\"text\":\"" + "x".repeat(Note.MAX_TEXT + 1) + "\"}").andExpect(problem(400, "invalid-field"));
		create("{\"text\":\"a\",\"color\":\"red\"}").andExpect(problem(400, "unknown-field"));
		create("{\"text\":").andExpect(problem(400, "malformed-body"));
		verifyNoInteractions(notes);
	}

	@Test
	void refusesACallerTheGatewayDidNotVouchFor() throws Exception {
		mvc.perform(post("/v1/__name__/notes").contentType(MediaType.APPLICATION_JSON).content("{\"text\":\"a\"}"))
			.andExpect(status().isUnauthorized());
		verifyNoInteractions(notes);
	}

	private ResultActions create(String body) throws Exception {
		return mvc.perform(post("/v1/__name__/notes").header(Identity.HEADER, TestIdentity.user("alice", "1", "__name__"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}
}
