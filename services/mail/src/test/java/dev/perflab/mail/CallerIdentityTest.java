package dev.perflab.mail;

import java.net.http.HttpRequest;

import org.junit.jupiter.api.Test;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.mail.MailReadTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pod that reaches mail without passing the gateway cannot read or send anyone's mail. The identities mail cannot
 * verify: MailboxControllerWebMvcTest.
 */
class CallerIdentityTest extends MailServiceTest {

	@Test
	void comparesTheCallerExactly() {
		// the gateway's subject and office as they are: another spelling is nobody's mailbox
		for (String[] caller : new String[][] { { "ALICE", "1" }, { "Alice", "1" }, { "alice", "01" }, { "alice", "+1" } }) {
			assertProblem(api.send(request().header(Identity.HEADER, TestIdentity.user(caller[0], caller[1], "mail"))), 403);
		}
	}

	@Test
	void refusesASendWithAForgedIdentityWithoutWritingAnything() {
		long mails = count("mail_content"), outbox = count("outbox");
		String body = """
				{"sender_no":1,"to":["jerry@example.com"],"subject":"forged","content":"x","important":false,
				"is_save":true,"is_separate_send":false,"is_encrypt":false,"is_receipt_confirm":false}""";

		assertProblem(api.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/v2/mails/send"))
			.header("Content-Type", "application/json").header("X-Perflab-User", "alice").header("X-Perflab-Office", "1")
			.POST(HttpRequest.BodyPublishers.ofString(body))), 401);

		assertThat(count("mail_content")).isEqualTo(mails);
		assertThat(count("outbox")).isEqualTo(outbox);
	}

	private HttpRequest.Builder request() {
		return api.as(null, "/v2/mailboxes").GET();
	}
}
