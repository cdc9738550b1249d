package dev.perflab.e2e;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.perflab.e2e.Gateway.authed;
import static dev.perflab.e2e.Gateway.json;
import static dev.perflab.e2e.Gateway.send;
import static org.assertj.core.api.Assertions.assertThat;

/** The mail service through the gateway, with real tokens, against the seeded MariaDB and EML files. */
class MailThroughGatewayTest {

	static final String ALICE = DevTokens.token("alice", "1");

	static final String BOB = DevTokens.token("bob", "1");

	static long large;

	@BeforeAll
	static void findThe22MbMail() {
		// oldest first: the seeded mails, before any a test sent (the mailbox grows with every run)
		for (int page = 1; page <= 100 && large == 0; page++) {
			List<?> mails = (List<?>) json(send(authed("/v2/mails?sort[received_date]=asc&size=100&page=" + page, ALICE).GET())).get("mails");
			for (Object m : mails) {
				Map<?, ?> mail = (Map<?, ?>) m;
				if (((Number) mail.get("size")).longValue() > 20_000_000L) {
					large = ((Number) mail.get("no")).longValue();
					break;
				}
			}
		}
		assertThat(large).as("alice has a 22 MB mail in the seed").isPositive();
	}

	@Test
	void listsMailboxesAndMails() {
		HttpResponse<String> boxes = send(authed("/v2/mailboxes", ALICE).GET());
		assertThat(boxes.statusCode()).isEqualTo(200);
		assertThat((List<?>) json(boxes).get("mailboxes")).hasSizeGreaterThanOrEqualTo(3);
		HttpResponse<String> list = send(authed("/v2/mails?sort[received_date]=asc&with=encrypted&size=5", ALICE).GET());
		assertThat(list.statusCode()).isEqualTo(200);
		assertThat((List<?>) json(list).get("mails")).hasSize(5);
	}

	@Test
	void readsThe22MbMailItsEmlAndItsAttachmentThroughTheGateway() {
		Map<?, ?> mail = json(send(authed("/v2/mails/" + large, ALICE).GET()));
		assertThat((List<?>) mail.get("attachments")).hasSize(1);
		HttpResponse<byte[]> eml = Gateway.bytes(authed("/v2/mails/" + large + "/eml", ALICE).GET());
		assertThat(eml.statusCode()).isEqualTo(200);
		assertThat((long) eml.body().length).isEqualTo(((Number) mail.get("size")).longValue());
		HttpResponse<byte[]> part = Gateway.bytes(authed("/v2/mails/" + large + "/attachments/0", ALICE)
			.header("Range", "bytes=0-1023").GET());
		assertThat(part.statusCode()).isEqualTo(206);
		assertThat(part.body()).hasSize(1024);
	}

	@Test
	void anotherUserNeverSeesAlicesMail() {
		for (String path : List.of("", "/eml", "/attachments/0")) {
			assertThat(send(authed("/v2/mails/" + large + path, BOB).GET()).statusCode()).as(path).isEqualTo(404);
		}
	}

	@Test
	void sendsAMailAndConfirmsItsReadReceiptPublicly() {
		String certKey = "e2e" + System.nanoTime();
		HttpResponse<String> accepted = send(authed("/v2/mails/send", ALICE).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("""
					{"cert_key":"%s","sender_no":1,"to":["jerry@example.com"],"cc":[],"bcc":[],"subject":"e2e",
					 "content":"hello","important":false,"is_save":true,"is_separate_send":false,"is_encrypt":false,
					 "is_receipt_confirm":true}""".formatted(certKey))));
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		assertThat((String) json(accepted).get("delivery_id")).matches("[0-9a-f-]{36}");
		// keys are generated per recipient (SendThroughGatewayTest follows the delivered link); a chosen key means nothing
		assertProblem(send(Gateway.request("/v2/office/1/receipt-confirm/AAAAAAAAAAAAAAAAAAAAAA").GET()), 404);
	}

	@Test
	void badInputIsAProblem() {
		assertProblem(send(authed("/v2/mails?size=1000", ALICE).GET()), 400);
		assertProblem(send(authed("/v2/mails/-4", ALICE).GET()), 400);
		assertProblem(send(authed("/v2/mails/send", ALICE).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"sender_no\":1,\"to\":[\"x@example.com\\r\\nBcc: y@example.com\"],"
					+ "\"subject\":\"s\",\"content\":\"c\"}"))), 400);
		assertProblem(send(Gateway.request("/v2/mails").GET()), 401);
	}

	private static void assertProblem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
	}
}
