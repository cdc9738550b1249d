package dev.perflab.mail.send;

import java.time.Instant;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Answers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.mail.Accounts;
import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.send.HandoffController.Handoff;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Where a sent mail's hand-off stands, for its owner only (JdbcClient mocked; the rows are RefusedHandoffTest's). */
@WebMvcTest(HandoffController.class)
@PlatformWeb
class HandoffControllerWebMvcTest {

	static final Account ALICE = new Account(1, 1, "alice@perflab.test", "alice");

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Accounts accounts;

	@MockitoBean(answers = Answers.RETURNS_DEEP_STUBS)
	JdbcClient jdbc;

	@BeforeEach
	void alice() {
		given(accounts.require(new Caller("alice", "1"))).willReturn(ALICE);
	}

	@Test
	@SuppressWarnings("unchecked")
	void answersTheHandoffOfTheCallersMail() throws Exception {
		deliveryId(Optional.of("d-0123456789abcdef"));
		given(jdbc.sql(contains("FROM outbox")).param(any()).query(any(RowMapper.class)).optional()).willReturn(Optional
			.of(new Handoff(7, "d-0123456789abcdef", "queued", 2, "send_unreachable", Instant.parse("2026-01-01T00:00:00Z"))));
		read("/v2/mails/7/handoff").andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("queued"))
			.andExpect(jsonPath("$.reason").value("send_unreachable"))
			.andExpect(jsonPath("$.next_attempt_at").value("2026-01-01T00:00:00Z"));
	}

	@Test
	@SuppressWarnings("unchecked")
	void aPurgedOutboxRowIsHandedOver() throws Exception {
		deliveryId(Optional.of("d-0123456789abcdef"));
		given(jdbc.sql(contains("FROM outbox")).param(any()).query(any(RowMapper.class)).optional())
			.willReturn(Optional.empty());
		read("/v2/mails/7/handoff").andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("handed_over"))
			.andExpect(jsonPath("$.attempts").doesNotExist());
	}

	@Test
	void anotherUsersOrAnUnsentMailIs404() throws Exception {
		deliveryId(Optional.empty());
		read("/v2/mails/7/handoff").andExpect(problem(404, "not-found"));
	}

	@Test
	void refusesABadNumberAndAnUnknownCaller() throws Exception {
		read("/v2/mails/0/handoff").andExpect(problem(400, "invalid-path"));
		read("/v2/mails/x/handoff").andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/mails/7/handoff")).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(jdbc);
	}

	private void deliveryId(Optional<String> id) {
		given(jdbc.sql(contains("FROM mail_content")).params(any(Object[].class)).query(String.class).optional())
			.willReturn(id);
	}

	private ResultActions read(String path) throws Exception {
		return mvc.perform(get(path).header(Identity.HEADER, TestIdentity.user("alice", "1", "mail")));
	}
}
