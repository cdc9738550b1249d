package dev.perflab.mail.receipt;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.Answers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.mail.Accounts;
import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.receipt.ReceiptStatusController.Receipt;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Which recipients confirmed a sent mail's receipt: for its sender only, and never the keys. */
@WebMvcTest(ReceiptStatusController.class)
@PlatformWeb
class ReceiptStatusControllerWebMvcTest {

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
	void tellsTheSenderWhichReceiptsWereConfirmedNeverTheKeys() throws Exception {
		owns(1L);
		given(jdbc.sql(contains("FROM receipt_confirm")).params(any(Object[].class)).query(any(RowMapper.class)).list())
			.willReturn(List.of(new Receipt("jerry@example.com", true, Instant.parse("2026-01-01T00:00:00Z")),
					new Receipt("tom@example.com", false, null)));
		read("/v2/mails/7/receipts").andExpect(status().isOk())
			.andExpect(jsonPath("$.mail_no").value(7))
			.andExpect(jsonPath("$.receipts[0].confirmed").value(true))
			.andExpect(jsonPath("$.receipts[1].confirmed_at").doesNotExist())
			.andExpect(jsonPath("$..cert_key").isEmpty())
			.andExpect(jsonPath("$..key").isEmpty());
	}

	@Test
	void anotherSendersMailIs404() throws Exception {
		owns(0L);
		read("/v2/mails/7/receipts").andExpect(problem(404, "not-found"));
	}

	@Test
	void refusesABadNumberAnUnknownCallerAndOneWithoutAnAccount() throws Exception {
		read("/v2/mails/abc/receipts").andExpect(problem(400, "invalid-path"));
		read("/v2/mails/0/receipts").andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/mails/7/receipts")).andExpect(problem(401, "unauthenticated"));
		given(accounts.require(new Caller("nobody", "1"))).willThrow(new ProblemException(HttpStatus.FORBIDDEN,
				"no-mail-account", "The caller has no mail account in this office"));
		mvc.perform(get("/v2/mails/7/receipts").header(Identity.HEADER, TestIdentity.user("nobody", "1", "mail")))
			.andExpect(problem(403, "no-mail-account"));
		verifyNoInteractions(jdbc);
	}

	private void owns(long count) {
		given(jdbc.sql(contains("FROM mail_content")).params(any(Object[].class)).query(Long.class).single())
			.willReturn(count);
	}

	private ResultActions read(String path) throws Exception {
		return mvc.perform(get(path).header(Identity.HEADER, TestIdentity.user("alice", "1", "mail")));
	}
}
