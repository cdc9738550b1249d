package dev.perflab.mail;

import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import jakarta.mail.Multipart;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MailReadTest extends MailServiceTest {

	@Test
	void readsThe22MbMailWithItsAttachmentListedButNotLoaded() {
		long no = visibleMail("large-22m");
		HttpResponse<String> response = api.get("alice", "/v2/mails/" + no);
		assertThat(response.statusCode()).isEqualTo(200);
		Map<?, ?> mail = MailApi.json(response);
		assertThat(mail.get("subject")).isEqualTo("Quarterly archive");
		assertThat(((Number) mail.get("size")).longValue()).isGreaterThan(22_000_000L);
		List<?> attachments = (List<?>) mail.get("attachments");
		assertThat(attachments).hasSize(1);
		assertThat(((Map<?, ?>) attachments.get(0)).get("size")).isEqualTo(16 * 1024 * 1024);
		assertThat(((Map<?, ?>) attachments.get(0)).get("name")).isEqualTo("archive.zip");
	}

	@Test
	void readsThe712KbMailWithItsHtmlAndFourImages() {
		Map<?, ?> mail = MailApi.json(api.get("alice", "/v2/mails/" + visibleMail("medium-712k")));
		assertThat((String) mail.get("html")).startsWith("<html>");
		assertThat((List<?>) mail.get("attachments")).hasSize(4);
	}

	@Test
	void streamsTheRawEmlWholeAndByRange() throws Exception {
		long no = visibleMail("large-22m");
		Path file = Path.of("target/mail-storage-test/seed/large-22m.eml");
		HttpResponse<byte[]> whole = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml").GET());
		assertThat(whole.statusCode()).isEqualTo(200);
		assertThat(whole.headers().firstValue("Content-Type")).hasValue("message/rfc822");
		assertThat(sha256(whole.body())).isEqualTo(sha256(Files.readAllBytes(file)));

		HttpResponse<byte[]> range = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml").header("Range", "bytes=1000-1099").GET());
		assertThat(range.statusCode()).isEqualTo(206);
		byte[] expected = new byte[100];
		System.arraycopy(Files.readAllBytes(file), 1000, expected, 0, 100);
		assertThat(range.body()).isEqualTo(expected);
	}

	@Test
	void streamsAnAttachmentDecodedWholeAndByRange() throws Exception {
		long no = visibleMail("large-22m");
		byte[] decoded;
		try (InputStream in = Files.newInputStream(Path.of("target/mail-storage-test/seed/large-22m.eml"))) {
			MimeMessage message = new MimeMessage(Session.getInstance(new Properties()), in);
			decoded = ((Multipart) message.getContent()).getBodyPart(1).getInputStream().readAllBytes();
		}
		HttpResponse<byte[]> whole = api.bytes(api.as("alice", "/v2/mails/" + no + "/attachments/0").GET());
		assertThat(whole.statusCode()).isEqualTo(200);
		assertThat(whole.headers().firstValue("Content-Type")).hasValue("application/zip");
		assertThat(whole.headers().firstValue("Content-Disposition").orElseThrow()).contains("archive.zip");
		assertThat(sha256(whole.body())).isEqualTo(sha256(decoded));

		HttpResponse<byte[]> tail = api.bytes(api.as("alice", "/v2/mails/" + no + "/attachments/0").header("Range", "bytes=-64").GET());
		assertThat(tail.statusCode()).isEqualTo(206);
		byte[] expected = new byte[64];
		System.arraycopy(decoded, decoded.length - 64, expected, 0, 64);
		assertThat(tail.body()).isEqualTo(expected);
	}

	@Test
	void manyRangesAreServedAsTheOneRangeSpanningThem() throws Exception {
		long no = visibleMail("large-22m");
		byte[] file = Files.readAllBytes(Path.of("target/mail-storage-test/seed/large-22m.eml"));
		// 50 ranges: served part by part, each would reopen the 22 MB stream and re-decode it up to its offset
		StringBuilder ranges = new StringBuilder("bytes=");
		for (int i = 0; i < 50; i++) {
			ranges.append(i == 0 ? "" : ",").append(i * 1000).append('-').append(i * 1000 + 9);
		}
		HttpResponse<byte[]> response = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml").header("Range", "bytes=5000-5099,100-199").GET());
		assertThat(response.statusCode()).isEqualTo(206);
		assertThat(response.headers().firstValue("Content-Range")).hasValue("bytes 100-5099/" + file.length);
		byte[] expected = new byte[5000];
		System.arraycopy(file, 100, expected, 0, 5000);
		assertThat(response.body()).isEqualTo(expected);
		HttpResponse<byte[]> many = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml").header("Range", ranges.toString()).GET());
		assertThat(many.statusCode()).isEqualTo(206);
		assertThat(many.headers().firstValue("Content-Range")).hasValue("bytes 0-49009/" + file.length);
		assertThat(many.headers().firstValue("Content-Type")).hasValue("message/rfc822");
		// more ranges than Spring parses (100): not a Range this server understands, so the whole mail (RFC 9110)
		HttpResponse<byte[]> tooMany = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml")
			.header("Range", ranges + "," + ranges.substring(6) + "," + ranges.substring(6) + ",1-2").GET());
		assertThat(tooMany.statusCode()).isEqualTo(200);
		assertThat(tooMany.body()).hasSize(file.length);
	}

	@Test
	void aRangePastTheEndIsA416ProblemAndEveryAnswerSaysNosniff() {
		long no = visibleMail("large-22m");
		for (String path : List.of("/eml", "/attachments/0")) {
			HttpResponse<String> response = api.send(api.as("alice", "/v2/mails/" + no + path).header("Range", "bytes=999999999-").GET());
			assertThat(response.statusCode()).as(path).isEqualTo(416);
			assertThat(response.headers().firstValue("Content-Type")).as(path).hasValue("application/problem+json");
			assertThat(response.headers().firstValue("Content-Range").orElseThrow()).as(path).startsWith("bytes */");
			assertThat(MailApi.json(response).get("type")).isEqualTo("https://perflab.dev/problems/range-not-satisfiable");
			for (String range : new String[] { null, "bytes=0-9" }) {
				var request = api.as("alice", "/v2/mails/" + no + path);
				HttpResponse<byte[]> ok = api.bytes((range == null ? request : request.header("Range", range)).GET());
				assertThat(ok.headers().firstValue("X-Content-Type-Options")).as(path + " " + range).hasValue("nosniff");
			}
		}
	}

	@Test
	void anotherUsersMailEmlAndAttachmentsAreNotFound() {
		long no = visibleMail("large-22m");
		for (String path : List.of("", "/eml", "/attachments/0")) {
			HttpResponse<String> response = api.get("bob", "/v2/mails/" + no + path);
			assertThat(response.statusCode()).as(path).isEqualTo(404);
			assertThat(response.body()).doesNotContain("Quarterly");
		}
	}

	@Test
	void mailsInLockedMailboxesAreNotFound() {
		Long locked = jdbc.queryForObject("""
				SELECT MIN(m.no) FROM mail_content m JOIN personal_mailbox p ON p.no = m.mbox_no
				WHERE m.user_no = 1 AND p.lockinfo_type IN ('A','B')""", Long.class);
		assertThat(api.get("alice", "/v2/mails/" + locked).statusCode()).isEqualTo(404);
	}

	/** Numbers and indexes that are no numbers, and no caller: MailControllerWebMvcTest, RawControllerWebMvcTest. */
	@Test
	void unknownMailNumbersAndIndexesAre4xxProblems() {
		assertProblem(api.get("alice", "/v2/mails/99999999"), 404);
		long no = visibleMail("large-22m");
		assertProblem(api.get("alice", "/v2/mails/" + no + "/attachments/1"), 404);
		assertProblem(api.get("nobody", "/v2/mails/" + no), 403);
	}

	/** Issue 44 item 8: 4294967296 was cut to the int 0 and served the mail's first attachment. */
	@Test
	void attachmentIndexesPastTheListAreNotFoundNeverWrappedToAnotherOne() {
		long no = visibleMail("large-22m");
		String attachments = "/v2/mails/" + no + "/attachments/";
		assertThat(api.bytes(api.as("alice", attachments + "0").header("Range", "bytes=0-9").GET()).statusCode())
			.as("the one attachment there is").isEqualTo(206);
		for (String index : List.of("1", "2147483647", "2147483648", "4294967295", "4294967296", "4294967297",
				"8589934592", "9223372036854775807", "9223372036854775808", "18446744073709551616",
				"99999999999999999999999999999999")) {
			HttpResponse<String> response = api.get("alice", attachments + index);
			assertThat(response.statusCode()).as(index).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type")).as(index).hasValue("application/problem+json");
			assertThat(MailApi.json(response).get("type")).as(index).isEqualTo("https://perflab.dev/problems/not-found");
			assertThat(response.headers().firstValue("Content-Disposition")).as(index + ": no archive.zip").isEmpty();
		}
		for (String index : List.of("-1", "-4294967296", "-9223372036854775808", "-99999999999999999999", "abc", "0x0",
				"1e3", "1.0", "%2B", "4294967296abc")) {
			HttpResponse<String> response = api.get("alice", attachments + index);
			assertThat(response.statusCode()).as(index).isEqualTo(400);
			assertThat(response.headers().firstValue("Content-Type")).as(index).hasValue("application/problem+json");
			assertThat(MailApi.json(response).get("type")).as(index).isEqualTo("https://perflab.dev/problems/invalid-path");
		}
	}

	@Test
	void aStoredPathOutsideTheStorageIsNeverServed() {
		long no = visibleMail("small-4k");
		jdbc.update("UPDATE mail_content SET eml_path = '../../../../etc/hostname' WHERE no = ?", no);
		try {
			HttpResponse<String> response = api.get("alice", "/v2/mails/" + no + "/eml");
			assertThat(response.statusCode()).isEqualTo(404);
		}
		finally {
			jdbc.update("UPDATE mail_content SET eml_path = 'seed/small-4k.eml' WHERE no = ?", no);
		}
	}

	static void assertProblem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
	}

	static String sha256(byte[] bytes) throws Exception {
		return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
	}
}
