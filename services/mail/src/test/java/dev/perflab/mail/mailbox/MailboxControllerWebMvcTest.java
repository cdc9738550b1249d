package dev.perflab.mail.mailbox;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
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
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The mailbox list, and what every mail endpoint shares: a caller mail verifies, mapped to a mail account. */
@WebMvcTest(MailboxController.class)
@PlatformWeb
class MailboxControllerWebMvcTest {

	static final Account ALICE = new Account(1, 1, "alice@perflab.test", "alice");

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Accounts accounts;

	@MockitoBean
	Mailboxes mailboxes;

	@Test
	void listsTheCallersMailboxes() throws Exception {
		given(accounts.require(new Caller("alice", "1"))).willReturn(ALICE);
		given(mailboxes.list(ALICE)).willReturn(List.of(new Mailboxes.MailboxView(3, "Inbox", "inbox", false, 2, 9)));
		list(TestIdentity.user("alice", "1", "mail")).andExpect(status().isOk())
			.andExpect(jsonPath("$.mailboxes[0].name").value("Inbox"))
			.andExpect(jsonPath("$.mailboxes[0].unread").value(2));
	}

	@Test
	void refusesEveryIdentityItCannotVerify() throws Exception {
		mvc.perform(get("/v2/mailboxes").header("X-Perflab-User", "alice").header("X-Perflab-Office", "1"))
			.andExpect(problem(401, "unauthenticated"));
		list(TestIdentity.forgedUser("alice", "1", "mail")).andExpect(problem(401, "unauthenticated"));
		list(TestIdentity.user("alice", "1", "shortener")).andExpect(problem(401, "unauthenticated"));
		list(TestIdentity.mail("mail")).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(accounts, mailboxes);
	}

	@Test
	void aCallerWithoutAMailAccountIs403() throws Exception {
		given(accounts.require(any())).willThrow(new ProblemException(HttpStatus.FORBIDDEN, "no-mail-account",
				"The caller has no mail account in this office"));
		list(TestIdentity.user("nobody", "1", "mail")).andExpect(problem(403, "no-mail-account"));
		verifyNoInteractions(mailboxes);
	}

	private ResultActions list(String token) throws Exception {
		return mvc.perform(get("/v2/mailboxes").header(Identity.HEADER, token));
	}
}
