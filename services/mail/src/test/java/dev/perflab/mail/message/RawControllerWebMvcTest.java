package dev.perflab.mail.message;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
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
import dev.perflab.mail.eml.Attachments;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.mail.eml.StoredEml;
import dev.perflab.platform.Caller;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The raw EML and attachments: whole or the one range spanning those asked, 416 past the end, always nosniff. */
@WebMvcTest(RawController.class)
@PlatformWeb
class RawControllerWebMvcTest {

	static final Account ALICE = new Account(1, 1, "alice@perflab.test", "alice");

	static final StoredEml EML = new StoredEml("1/7.eml", false, 10);

	static final byte[] BYTES = "0123456789".getBytes(StandardCharsets.US_ASCII);

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Accounts accounts;

	@MockitoBean
	Mails mails;

	@MockitoBean
	EmlStore store;

	@MockitoBean
	Attachments attachments;

	@BeforeEach
	void aMailOfTenBytesWithOneAttachment() throws Exception {
		given(accounts.require(new Caller("alice", "1"))).willReturn(ALICE);
		given(mails.find(ALICE, 7)).willReturn(new Mails.StoredMail(7, 3, Instant.parse("2026-01-01T00:00:00Z"), EML));
		given(mails.find(ALICE, 8)).willThrow(ProblemException.notFound("No mail 8"));
		given(mails.attachments(7)).willReturn(List.of(new Mails.AttachmentView(0, "a.txt", 10, "text/plain", "/x")));
		given(store.open(EML)).willAnswer(invocation -> new ByteArrayInputStream(BYTES));
		given(attachments.open(EML, 0)).willAnswer(invocation -> new ByteArrayInputStream(BYTES));
	}

	@Test
	void servesTheWholeEmlAsADownloadThatIsNeverSniffed() throws Exception {
		read("/v2/mails/7/eml").andExpect(status().isOk())
			.andExpect(content().contentType("message/rfc822"))
			.andExpect(header().string("Accept-Ranges", "bytes"))
			.andExpect(header().string("X-Content-Type-Options", "nosniff"))
			.andExpect(header().string("Content-Disposition", org.hamcrest.Matchers.startsWith("attachment")))
			.andExpect(content().bytes(BYTES));
	}

	@Test
	void servesTheOneRangeSpanningThoseAsked() throws Exception {
		for (String path : List.of("/v2/mails/7/eml", "/v2/mails/7/attachments/0")) {
			read(path, "Range", "bytes=2-3,6-7").andExpect(status().isPartialContent())
				.andExpect(header().string("Content-Range", "bytes 2-7/10"))
				.andExpect(header().string("X-Content-Type-Options", "nosniff"))
				.andExpect(content().string("234567"));
			read(path, "Range", "lines=1-2").andExpect(status().isOk()).andExpect(content().bytes(BYTES));
		}
	}

	@Test
	void aRangePastTheEndIsA416Problem() throws Exception {
		for (String path : List.of("/v2/mails/7/eml", "/v2/mails/7/attachments/0")) {
			read(path, "Range", "bytes=999999999-").andExpect(problem(416, "range-not-satisfiable"))
				.andExpect(header().string("Content-Range", "bytes */10"));
		}
	}

	@Test
	void badMailNumbersAndIndexesAre4xxProblems() throws Exception {
		read("/v2/mails/-1/eml").andExpect(problem(400, "invalid-path"));
		read("/v2/mails/abc/eml").andExpect(problem(400, "invalid-path"));
		read("/v2/mails/8/eml").andExpect(problem(404, "not-found"));
		read("/v2/mails/7/attachments/-3").andExpect(problem(400, "invalid-path"));
		read("/v2/mails/7/attachments/x").andExpect(problem(400, "invalid-path"));
		// never cut to an int: 4294967296 as (int) is 0, the attachment there is
		for (String index : List.of("1", "2147483648", "4294967296", "99999999999999999999")) {
			read("/v2/mails/7/attachments/" + index).andExpect(problem(404, "not-found"));
		}
	}

	@Test
	void needsACallerWithAMailAccount() throws Exception {
		given(accounts.require(new Caller("nobody", "1"))).willThrow(new ProblemException(HttpStatus.FORBIDDEN,
				"no-mail-account", "The caller has no mail account in this office"));
		mvc.perform(get("/v2/mails/7/eml")).andExpect(problem(401, "unauthenticated"));
		mvc.perform(get("/v2/mails/7/eml").header(Identity.HEADER, TestIdentity.user("nobody", "1", "mail")))
			.andExpect(problem(403, "no-mail-account"));
		verifyNoInteractions(store);
		org.mockito.Mockito.verify(mails, org.mockito.Mockito.never()).find(any(), org.mockito.ArgumentMatchers.anyLong());
	}

	private ResultActions read(String path, String... headers) throws Exception {
		var request = get(path).header(Identity.HEADER, TestIdentity.user("alice", "1", "mail"));
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return mvc.perform(request);
	}
}
