package dev.perflab.send.job;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The hand-off's contract: mail's relay only, each token bound to its one call, the job's fields checked first. */
@WebMvcTest(JobController.class)
@PlatformWeb
class JobControllerWebMvcTest {

	static final String ID = "job-0123456789abcdef";

	static final String PATH = "/internal/jobs/" + ID;

	static final String JOB = "{\"mail_no\":7,\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\","
			+ "\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}";

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Jobs jobs;

	@Test
	void aNewJobIs201WithItsDeliveryAndTheSameJobAgain200() throws Exception {
		given(jobs.accept(eq(ID), any())).willReturn(true, false);
		relay(PATH, JOB).andExpect(status().isCreated())
			.andExpect(header().string("Location", "/v2/mails/" + ID + "/delivery"))
			.andExpect(jsonPath("$.delivery_id").value(ID))
			.andExpect(jsonPath("$.mail_no").value(7))
			.andExpect(jsonPath("$.created").value(true));
		relay(PATH, JOB).andExpect(status().isOk()).andExpect(jsonPath("$.created").value(false));
	}

	@ParameterizedTest
	@ValueSource(strings = {
			"{\"mail_no\":7,\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\",\"cert_key\":\"k1\"}",
			"{\"mail_no\":7,\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"]}",
			"{\"mail_no\":7,\"office\":0,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}",
			"{\"mail_no\":7,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}",
			"{\"mail_no\":7,\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\",\"evil\":1}",
			"{\"mail_no\":7,\"office\":\"one\",\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}",
			"{\"mail_no\":0,\"office\":1,\"owner\":\"alice\",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}",
			"{\"mail_no\":7,\"office\":1,\"owner\":\" \",\"from\":\"alice@perflab.test\",\"to\":[\"a@example.com\"],\"eml\":\"aGk=\"}",
			"{\"mail_no\":7,\"office\":1,",
			"[]" })
	void refusesBadJobsBeforeTheyReachTheStore(String body) throws Exception {
		relay(PATH, body).andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.type").value(org.hamcrest.Matchers.startsWith("https://perflab.dev/problems/")));
		verifyNoInteractions(jobs);
	}

	@Test
	void refusesBadPathsMediaTypesAndOversizedJobs() throws Exception {
		relay("/internal/jobs/abc", JOB).andExpect(problem(400, "invalid-path"));
		relay("/internal/jobs/-5", JOB).andExpect(problem(400, "invalid-path"));
		byte[] bytes = JOB.getBytes(StandardCharsets.UTF_8);
		mvc.perform(put(PATH).contentType(MediaType.TEXT_PLAIN).content(bytes)
			.header(Identity.HEADER, TestIdentity.mail("send", "PUT", PATH, bytes)))
			.andExpect(problem(415, "unsupported-media-type"));
		String huge = JOB.replace("\"aGk=\"", "\"" + "QUFB".repeat(4_000_000) + "\"");
		relay(PATH, huge).andExpect(problem(413, "payload-too-large"));
		verifyNoInteractions(jobs);
	}

	@Test
	void takesJobsFromMailsRelayOnly() throws Exception {
		byte[] bytes = JOB.getBytes(StandardCharsets.UTF_8);
		as(null, JOB).andExpect(problem(401, "unauthenticated"));
		mvc.perform(put(PATH).contentType(MediaType.APPLICATION_JSON).content(JOB).header("X-Perflab-User", "mail"))
			.andExpect(problem(401, "unauthenticated"));
		as(TestIdentity.forgedMail("send", "PUT", PATH, bytes), JOB).andExpect(problem(401, "unauthenticated"));
		as(TestIdentity.mail("shortener", "PUT", PATH, bytes), JOB).andExpect(problem(401, "unauthenticated"));
		// mail's own key, but bound to no request: a service's token is good for the one call it was signed for
		as(TestIdentity.mail("send"), JOB).andExpect(problem(401, "unauthenticated"));
		as(TestIdentity.user("alice", "1", "send"), JOB).andExpect(problem(403, "forbidden"));
		as(TestIdentity.user("mail", "1", "send"), JOB).andExpect(problem(403, "forbidden"));
		verifyNoInteractions(jobs);
	}

	@Test
	void aCapturedRelayTokenOnlyRepeatsItsOwnCall() throws Exception {
		String token = TestIdentity.mail("send", "PUT", PATH, JOB.getBytes(StandardCharsets.UTF_8));
		String other = "/internal/jobs/job-fedcba9876543210";
		mvc.perform(put(other).contentType(MediaType.APPLICATION_JSON).content(JOB).header(Identity.HEADER, token))
			.andExpect(problem(401, "unauthenticated"));
		String forged = JOB.replace("a@example.com", "victim@example.com").replace("\"alice", "\"mallory");
		as(token, forged).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(jobs);
	}

	private ResultActions relay(String path, String body) throws Exception {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		return mvc.perform(put(path).contentType(MediaType.APPLICATION_JSON).content(bytes)
			.header(Identity.HEADER, TestIdentity.mail("send", "PUT", path, bytes)));
	}

	private ResultActions as(String token, String body) throws Exception {
		var request = put(PATH).contentType(MediaType.APPLICATION_JSON).content(body);
		return mvc.perform(token == null ? request : request.header(Identity.HEADER, token));
	}
}
