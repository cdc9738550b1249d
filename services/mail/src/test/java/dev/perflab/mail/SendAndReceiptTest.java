package dev.perflab.mail;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.perflab.mail.MailReadTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

class SendAndReceiptTest extends MailServiceTest {

	static final String VALID = """
			{"cert_key":"%s","sender_no":1,"to":["jerry@example.com"],"cc":["tom@example.com"],"bcc":[],
			 "subject":"136236234636","content":"contentcontent121212","important":false,"is_save":true,
			 "is_separate_send":false,"is_encrypt":false,"is_receipt_confirm":true}""";

	@Test
	void acceptsASendStoringMailTagsAndOutboxInOneGo() throws Exception {
		String certKey = "k" + System.nanoTime();
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json", VALID.formatted(certKey));
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();

		Map<String, Object> row = jdbc.queryForMap("SELECT mbox_no, eml_path, receipt_confirm FROM mail_content WHERE no = ?", no);
		assertThat(row.get("mbox_no")).isEqualTo(2L);
		assertThat(Files.readString(Path.of("target/mail-storage-test").resolve((String) row.get("eml_path"))))
			.contains("Subject: 136236234636").contains("contentcontent121212").doesNotContain("Bcc");
		List<String> keys = jdbc.queryForList("SELECT cert_key FROM receipt_confirm WHERE mail_no = ?", String.class, no);
		assertThat(keys).as("a key per recipient, generated: the client's cert_key is not used").hasSize(2)
			.doesNotHaveDuplicates().allMatch(k -> k.matches("[A-Za-z0-9_-]{22}")).doesNotContain(certKey);
		String deliveryId = (String) MailApi.json(accepted).get("delivery_id");
		assertThat(jdbc.queryForObject("SELECT job_id FROM outbox WHERE mail_no = ?", String.class, no)).isEqualTo(deliveryId);
		assertThat(jdbc.queryForObject("SELECT payload FROM outbox WHERE mail_no = ?", String.class, no))
			.contains("jerry@example.com").contains(keys.getFirst());
		assertThat(jdbc.queryForObject("SELECT total FROM mailbox_count WHERE office_no = 1 AND user_no = 1 AND mbox_no = 2", Long.class))
			.as("the Sent count moved with the mail, in the same transaction")
			.isEqualTo(jdbc.queryForObject("SELECT COUNT(*) FROM mail_content WHERE user_no = 1 AND mbox_no = 2 AND del_flag = 'N'", Long.class));

		String jerrysKey = jdbc.queryForObject("SELECT cert_key FROM receipt_confirm WHERE mail_no = ? AND email = 'jerry@example.com'",
				String.class, no);
		String confirm = "/v2/office/1/receipt-confirm/" + jerrysKey;
		HttpResponse<String> first = api.get(null, confirm);
		assertThat(first.statusCode()).isEqualTo(204);
		assertThat(first.body()).as("the answer names neither the mail nor the address").isEmpty();
		Object confirmedAt = jdbc.queryForObject("SELECT confirmed_at FROM receipt_confirm WHERE cert_key = ?", Object.class, jerrysKey);
		assertThat(api.get(null, confirm).statusCode()).isEqualTo(204);
		assertThat(jdbc.queryForObject("SELECT confirmed_at FROM receipt_confirm WHERE cert_key = ?", Object.class, jerrysKey))
			.as("the first confirmation is kept").isEqualTo(confirmedAt);
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM receipt_confirm WHERE mail_no = ? AND confirmed_at IS NULL",
				Long.class, no)).as("tom's receipt is his own").isEqualTo(1);
	}

	@Test
	void tellsTheSenderWhichReceiptsWereConfirmedNeverTheKeys() {
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json", VALID.formatted("k"));
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		List<String> keys = jdbc.queryForList("SELECT cert_key FROM receipt_confirm WHERE mail_no = ?", String.class, no);
		String jerrysKey = jdbc.queryForObject("SELECT cert_key FROM receipt_confirm WHERE mail_no = ? AND email = 'jerry@example.com'",
				String.class, no);
		assertThat(api.get(null, "/v2/office/1/receipt-confirm/" + jerrysKey).statusCode()).isEqualTo(204);

		HttpResponse<String> status = api.get("alice", "/v2/mails/" + no + "/receipts");
		assertThat(status.statusCode()).as(status.body()).isEqualTo(200);
		List<?> receipts = (List<?>) MailApi.json(status).get("receipts");
		assertThat(receipts).extracting(r -> ((Map<?, ?>) r).get("email") + "=" + ((Map<?, ?>) r).get("confirmed"))
			.containsExactly("jerry@example.com=true", "tom@example.com=false");
		assertThat(status.body()).as("a key is its recipient's alone").doesNotContain(keys);
		assertProblem(api.get("bob", "/v2/mails/" + no + "/receipts"), 404);
	}

	@ParameterizedTest
	@ValueSource(strings = { "x@[\u00fc]", "\u00fc@example.com", "a@ex\u00e4mple.com", "\"a b\"@example.com",
			" tom@example.com", "a@example.com\u200b" })
	void refusesAddressesThatAreNotPrintableAsciiNamingTheirPlace(String address) {
		String body = MailApi.JSON.writeValueAsString(Map.of("sender_no", 1, "to", List.of("jerry@example.com"),
				"cc", List.of("tom@example.com", address), "subject", "s", "content", "c"));
		HttpResponse<String> refused = assertRefused(() -> api.post("alice", "/v2/mails/send", "application/json", body), 400);
		assertThat(MailApi.json(refused).get("type")).isEqualTo("https://perflab.dev/problems/invalid-address");
		assertThat(MailApi.json(refused).get("errors")).asString().contains("field=cc[1]");
	}

	@Test
	void takesEveryKindOfAddressSendTakes() {
		// the shapes send's SendServiceTest takes: one rule (platform's MailAddress) decides for both
		List<String> to = List.of("Mixed.Case@Example.COM", "plus+tag@example.com", "\"quoted.local\"@example.com",
				"literal@[127.0.0.1]", "o'hara@example.com");
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json", MailApi.JSON.writeValueAsString(
				Map.of("sender_no", 1, "to", to, "subject", "s", "content", "c", "is_receipt_confirm", true)));
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		assertThat(jdbc.queryForList("SELECT email FROM receipt_confirm WHERE mail_no = ?", String.class, no))
			.containsExactlyInAnyOrder("mixed.case@example.com", "plus+tag@example.com", "\"quoted.local\"@example.com",
					"literal@[127.0.0.1]", "o'hara@example.com");
	}

	@Test
	void refusesAToListLongerThanTheListShowsInsteadOfFailing() {
		List<String> to = java.util.stream.IntStream.range(0, 20).mapToObj(SendAndReceiptTest::longAddress).toList();
		String body = MailApi.JSON.writeValueAsString(Map.of("sender_no", 1, "to", to, "subject", "s", "content", "c"));
		HttpResponse<String> refused = assertRefused(() -> api.post("alice", "/v2/mails/send", "application/json", body), 400);
		assertThat(MailApi.json(refused).get("errors")).asString().contains("field=to");
	}

	@Test
	void acceptsTheMostRecipientsAMailMayHaveAtTheLongestAddressesWithReceipts() {
		// user3 (user 3 of office 1): this test's 215 recipients stay out of alice's hour
		jdbc.update("DELETE FROM recipient_quota WHERE scope = 'user' AND subject = 3");
		List<String> to = java.util.stream.IntStream.range(0, 15).mapToObj(SendAndReceiptTest::longAddress).toList();
		List<String> cc = java.util.stream.IntStream.range(100, 200).mapToObj(SendAndReceiptTest::longAddress).toList();
		List<String> bcc = java.util.stream.IntStream.range(200, 300).mapToObj(SendAndReceiptTest::longAddress).toList();
		String body = MailApi.JSON.writeValueAsString(Map.of("sender_no", 3, "to", to, "cc", cc, "bcc", bcc, "subject", "s",
				"content", "c", "is_receipt_confirm", true));
		HttpResponse<String> accepted = api.post("user3", "/v2/mails/send", "application/json", body);
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM receipt_confirm WHERE mail_no = ?", Long.class, no)).isEqualTo(215);
		assertThat(jdbc.queryForObject("SELECT LENGTH(payload) FROM outbox WHERE mail_no = ?", Long.class, no))
			.as("more than TEXT's 65,535 bytes").isGreaterThan(65_535);
	}

	/** a distinct address of 252 characters, the most a path may have less two */
	private static String longAddress(int i) {
		return "r%03d".formatted(i) + "x".repeat(60) + "@" + "a".repeat(60) + "." + "b".repeat(60) + "." + "c".repeat(60)
				+ ".test";
	}

	@Test
	void acceptsTheReadmeExampleWithItsFlagsLeftOut() {
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json",
				"{\"sender_no\":1,\"to\":[\"jerry@example.com\"],\"subject\":\"hi\",\"content\":\"hello\"}");
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		assertThat(jdbc.queryForMap("SELECT important, encrypted, receipt_confirm, del_flag FROM mail_content WHERE no = ?", no))
			.as("an absent flag is false").containsEntry("important", false).containsEntry("encrypted", false)
			.containsEntry("receipt_confirm", false).containsEntry("del_flag", "Y");
	}

	/** Malformed keys and offices: ReceiptControllerWebMvcTest. */
	@Test
	void readReceiptsRefuseUnknownKeys() {
		assertProblem(api.get(null, "/v2/office/1/receipt-confirm/AAAAAAAAAAAAAAAAAAAAAA"), 404);
	}

	/** What Sends decides; missing, unknown and mistyped fields and malformed JSON: SendControllerWebMvcTest. */
	@ParameterizedTest
	@ValueSource(strings = {
			"{\"sender_no\":1,\"to\":[\"bad address\"],\"subject\":\"s\",\"content\":\"c\"}",
			"{\"sender_no\":1,\"to\":[\"a@example.com\\r\\nBcc: victim@example.com\"],\"subject\":\"s\",\"content\":\"c\"}",
			"{\"sender_no\":1,\"to\":[\"Name <a@example.com>\"],\"subject\":\"s\",\"content\":\"c\"}",
			"{\"sender_no\":1,\"to\":[\"a@example.com\"],\"subject\":\"hi\\r\\nBcc: victim@example.com\",\"content\":\"c\"}",
			"{\"sender_no\":1,\"to\":[],\"subject\":\"s\",\"content\":\"c\"}" })
	void refusesBadSendsWithoutWritingAnything(String body) {
		assertRefused(() -> api.post("alice", "/v2/mails/send", "application/json", body), 400);
	}

	/** Oversized bodies, non-JSON and anonymous callers: SendControllerWebMvcTest. */
	@Test
	void refusesSendingAsSomeoneElse() {
		assertRefused(() -> api.post("alice", "/v2/mails/send", "application/json",
				VALID.formatted("k1").replace("\"sender_no\":1", "\"sender_no\":2")), 403);
		String reused = "k" + System.nanoTime();
		assertThat(api.post("alice", "/v2/mails/send", "application/json", VALID.formatted(reused)).statusCode()).isEqualTo(202);
		assertThat(api.post("alice", "/v2/mails/send", "application/json", VALID.formatted(reused)).statusCode())
			.as("a client's cert_key is ignored, so reusing one is harmless").isEqualTo(202);
	}

	private HttpResponse<String> assertRefused(java.util.function.Supplier<HttpResponse<String>> call, int status) {
		long mails = count("mail_content"), outbox = count("outbox"), tags = count("receipt_confirm");
		HttpResponse<String> refused = call.get();
		assertProblem(refused, status);
		assertThat(count("mail_content")).isEqualTo(mails);
		assertThat(count("outbox")).isEqualTo(outbox);
		assertThat(count("receipt_confirm")).isEqualTo(tags);
		return refused;
	}
}
