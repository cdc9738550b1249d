package dev.perflab.mail.receipt;

import org.junit.jupiter.api.Test;
import org.mockito.Answers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import dev.perflab.platform.PlatformWeb;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The public read-receipt hit: a bare 204 for a known key, 404 for an unknown one, 400 for a malformed one. */
@WebMvcTest(ReceiptController.class)
@PlatformWeb
class ReceiptControllerWebMvcTest {

	static final String KEY = "AAAAAAAAAAAAAAAAAAAAAA";

	@Autowired
	MockMvc mvc;

	@MockitoBean(answers = Answers.RETURNS_DEEP_STUBS)
	JdbcClient jdbc;

	@Test
	void aKnownKeyIsABare204WithoutACaller() throws Exception {
		given(jdbc.sql(anyString()).params(any(Object[].class)).update()).willReturn(1);
		mvc.perform(get("/v2/office/1/receipt-confirm/" + KEY)).andExpect(status().isNoContent())
			.andExpect(content().bytes(new byte[0]));
	}

	@Test
	void anUnknownKeyIs404() throws Exception {
		given(jdbc.sql(anyString()).params(any(Object[].class)).update()).willReturn(0);
		mvc.perform(get("/v2/office/1/receipt-confirm/" + KEY)).andExpect(problem(404, "not-found"));
	}

	@Test
	void readReceiptsRefuseMalformedKeysAndOffices() throws Exception {
		mvc.perform(get("/v2/office/abc/receipt-confirm/" + KEY)).andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/office/0/receipt-confirm/" + KEY)).andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/office/1/receipt-confirm/k1")).andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/office/1/receipt-confirm/k%20'or'1")).andExpect(problem(400, "invalid-path"));
		mvc.perform(get("/v2/office/1/receipt-confirm/" + KEY + "A")).andExpect(problem(400, "invalid-path"));
		verifyNoInteractions(jdbc);
	}
}
