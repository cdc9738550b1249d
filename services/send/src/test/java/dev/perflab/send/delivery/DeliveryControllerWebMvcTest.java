package dev.perflab.send.delivery;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

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
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.TestIdentity;
import dev.perflab.send.delivery.DeliveryController.Delivery;
import dev.perflab.send.delivery.DeliveryController.RecipientStatus;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.contains;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The delivery status's contract: a caller the gateway vouched for, a delivery id or a mail number, an office
 * written the one way; the rows themselves are SendServiceTest's.
 */
@WebMvcTest(DeliveryController.class)
@PlatformWeb
class DeliveryControllerWebMvcTest {

	static final String PATH = "/v2/mails/7/delivery";

	@Autowired
	MockMvc mvc;

	@MockitoBean(answers = Answers.RETURNS_DEEP_STUBS)
	JdbcClient jdbc;

	@Test
	@SuppressWarnings("unchecked")
	void answersTheCallersDeliveryWithEachRecipientsReason() throws Exception {
		found(Optional.of(new Delivery("job-0123456789abcdef", 7, "pending", 1, Instant.parse("2026-01-01T00:00:00Z"),
				null, Instant.parse("2026-01-01T00:01:00Z"), null)));
		given(jdbc.sql(contains("FROM recipient")).param(any()).query(any(RowMapper.class)).list())
			.willReturn(List.of(new RecipientStatus("a@example.com", "to", "pending", "deferred", 1, null, true, null)));
		read(TestIdentity.user("alice", "1", "send"), PATH).andExpect(status().isOk())
			.andExpect(jsonPath("$.delivery_id").value("job-0123456789abcdef"))
			.andExpect(jsonPath("$.next_attempt_at").value("2026-01-01T00:01:00Z"))
			.andExpect(jsonPath("$.recipients[0].reason").value("deferred"))
			.andExpect(jsonPath("$.recipients[0].read_receipt").value(true));
		verify(jdbc).sql(contains("mail_no = ?"));
	}

	@Test
	void anUnknownDeliveryIsA404Problem() throws Exception {
		found(Optional.empty());
		read(TestIdentity.user("alice", "1", "send"), PATH).andExpect(problem(404, "not-found"));
		read(TestIdentity.user("alice", "1", "send"), "/v2/mails/job-0123456789abcdef/delivery")
			.andExpect(problem(404, "not-found"));
	}

	@Test
	void anOfficeWrittenAnotherWayIsNoOffice() throws Exception {
		read(TestIdentity.user("alice", "01", "send"), PATH).andExpect(problem(404, "not-found"));
		read(TestIdentity.user("alice", "+1", "send"), PATH).andExpect(problem(404, "not-found"));
		verifyNoInteractions(jdbc);
	}

	@Test
	void refusesARefThatIsNeitherADeliveryIdNorAMailNumber() throws Exception {
		for (String ref : new String[] { "x1", "0", "99999999999999999999", "short-id", "a".repeat(65), "job_0123456789abcdef" }) {
			read(TestIdentity.user("alice", "1", "send"), "/v2/mails/" + ref + "/delivery")
				.andExpect(problem(400, "invalid-path"));
		}
	}

	@Test
	void deliveryStatusNeedsAnIdentityThisServiceVerifies() throws Exception {
		// the headers every service trusted before: from a pod that reaches send directly they prove nothing
		mvc.perform(get(PATH).header("X-Perflab-User", "alice").header("X-Perflab-Office", "1"))
			.andExpect(problem(401, "unauthenticated"));
		read(null, PATH).andExpect(problem(401, "unauthenticated"));
		read(TestIdentity.forgedUser("alice", "1", "send"), PATH).andExpect(problem(401, "unauthenticated"));
		read(TestIdentity.user("alice", "1", "mail"), PATH).andExpect(problem(401, "unauthenticated"));
		read(TestIdentity.mail("send"), PATH).andExpect(problem(401, "unauthenticated"));
		read("not-a-token", PATH).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(jdbc);
	}

	@SuppressWarnings("unchecked")
	private void found(Optional<Delivery> delivery) {
		given(jdbc.sql(contains("FROM delivery_job")).params(any(Object[].class)).query(any(RowMapper.class)).optional())
			.willReturn(delivery);
	}

	private ResultActions read(String token, String path) throws Exception {
		var request = get(path);
		return mvc.perform(token == null ? request : request.header(Identity.HEADER, token));
	}
}
