package dev.perflab.mail;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** EML files stored bzip2-compressed, as in seed 000's storage, read and streamed like plain ones. */
class CompressedEmlTest extends MailServiceTest {

	@Test
	void readsAndStreamsABzip2CompressedEml() throws Exception {
		Path root = Path.of("target/mail-storage-test");
		Path plain = root.resolve("seed/medium-712k.eml");
		Path packed = root.resolve("seed/medium-712k.eml.bz2");
		try (InputStream in = Files.newInputStream(plain);
				OutputStream out = new BZip2CompressorOutputStream(Files.newOutputStream(packed))) {
			in.transferTo(out);
		}
		long no = visibleMail("medium-712k");
		jdbc.update("UPDATE mail_content SET eml_path = 'seed/medium-712k.eml.bz2', compressed = TRUE WHERE no = ?", no);
		try {
			Map<?, ?> mail = MailApi.json(api.get("alice", "/v2/mails/" + no));
			assertThat((String) mail.get("html")).startsWith("<html>");
			HttpResponse<byte[]> raw = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml").GET());
			assertThat(raw.statusCode()).isEqualTo(200);
			assertThat(raw.body()).isEqualTo(Files.readAllBytes(plain));
			HttpResponse<byte[]> range = api.bytes(api.as("alice", "/v2/mails/" + no + "/eml").header("Range", "bytes=10-19").GET());
			assertThat(range.statusCode()).isEqualTo(206);
			byte[] expected = new byte[10];
			System.arraycopy(Files.readAllBytes(plain), 10, expected, 0, 10);
			assertThat(range.body()).isEqualTo(expected);
			HttpResponse<byte[]> image = api.bytes(api.as("alice", "/v2/mails/" + no + "/attachments/2").GET());
			assertThat(image.statusCode()).isEqualTo(200);
			assertThat(image.body()).hasSize(128_000);
		}
		finally {
			jdbc.update("UPDATE mail_content SET eml_path = 'seed/medium-712k.eml', compressed = FALSE WHERE no = ?", no);
		}
	}
}
