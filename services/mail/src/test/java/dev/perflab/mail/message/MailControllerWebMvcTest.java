package dev.perflab.mail.message;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.mail.Accounts;
import dev.perflab.mail.Accounts.Account;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The mail list's query, read whole (an unknown parameter refused, pages bounded), and a mail by its number. */
@WebMvcTest(MailController.class)
@PlatformWeb
class MailControllerWebMvcTest {

	static final Account ALICE = new Account(1, 1, "alice@perflab.test", "alice");

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Accounts accounts;

	@MockitoBean
	Mails mails;

	@BeforeEach
	void alice() {
		given(accounts.require(new Caller("alice", "1"))).willReturn(ALICE);
		given(mails.maxPageSize()).willReturn(100);
		given(mails.list(eq(ALICE), any())).willReturn(new Mails.MailPage(1, 20, 0, List.of()));
	}

	@Test
	void listsWithTheDefaultsAndPagesAsDeepAsTheFirstTenThousandMails() throws Exception {
		list("").andExpect(status().isOk()).andExpect(jsonPath("$.page").value(1)).andExpect(jsonPath("$.total").value(0));
		verify(mails).list(ALICE, ListQuery.parse(new org.springframework.util.LinkedMultiValueMap<>(), 100));
		list("?size=100&page=100&sort[received_date]=asc").andExpect(status().isOk());
		list("?page=500").andExpect(status().isOk());
		list("?with=approval_mail&with=encrypted&mailbox=3").andExpect(status().isOk());
	}

	@ParameterizedTest
	@ValueSource(strings = { "size=101", "size=0", "size=x", "page=0", "page=-1", "mailbox=abc", "mailbox=-5",
			"sort[subject]=asc", "sort[received_date]=sideways", "with=everything", "bogus=1", "size=1&size=2", "page=501",
			"size=100&page=101", "size=1&page=10001", "page=1000000" })
	void refusesBadQueries(String query) throws Exception {
		list("?" + query).andExpect(problem(400, "invalid-query"));
		verify(mails, never()).list(any(), any());
	}

	@Test
	void readsAMailByItsNumberAndRefusesAnythingElse() throws Exception {
		given(mails.read(ALICE, 7)).willReturn(new Mails.MailDetail(7, 3, Instant.parse("2026-01-01T00:00:00Z"), 10, "Hi",
				"bob@example.com", List.of("alice@perflab.test"), List.of(), "Thu, 1 Jan 2026 00:00:00 +0000", "<m@x>",
				"text", null, false, List.of(), "/v2/mails/7/eml"));
		given(mails.read(ALICE, 99999999)).willThrow(ProblemException.notFound("No mail 99999999"));
		read("/v2/mails/7").andExpect(status().isOk()).andExpect(jsonPath("$.eml_href").value("/v2/mails/7/eml"));
		read("/v2/mails/99999999").andExpect(problem(404, "not-found"));
		read("/v2/mails/-1").andExpect(problem(400, "invalid-path"));
		read("/v2/mails/abc").andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/mails/7")).andExpect(problem(401, "unauthenticated"));
	}

	private ResultActions list(String query) throws Exception {
		return read("/v2/mails" + query);
	}

	private ResultActions read(String path) throws Exception {
		return mvc.perform(get(path).header(Identity.HEADER, TestIdentity.user("alice", "1", "mail")));
	}

}
