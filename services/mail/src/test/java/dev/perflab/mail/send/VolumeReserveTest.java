package dev.perflab.mail.send;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.util.unit.DataSize;

import dev.perflab.mail.MailApi;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.MailServiceTest;
import dev.perflab.mail.eml.EmlStore;

import static org.assertj.core.api.Assertions.assertThat;

/** The default reserve on a volume with room above it: sends are saved ({@link FullVolumeTest}'s other half). */
class VolumeReserveTest extends MailServiceTest {

	@Autowired
	MailProperties properties;

	@Autowired
	EmlStore store;

	@Autowired
	MeterRegistry meters;

	@Test
	void savesMailWhileTheVolumeHasMoreThanItsReserveFree() throws IOException {
		assertThat(properties.storageReserve()).as("the default reserve").isEqualTo(DataSize.ofMegabytes(512));
		assertThat(Files.getFileStore(store.root()).getUsableSpace()).as("this test needs room above the reserve")
			.isGreaterThan(properties.storageReserve().toBytes());
		double refusedBefore = meters.get("perflab.mail.storage.refusals").counter().count();

		Map<String, Object> body = new LinkedHashMap<>();
		body.put("sender_no", 1);
		body.put("to", List.of("jerry@example.com"));
		body.put("subject", "room to spare");
		body.put("content", "saved above the reserve");
		body.put("is_save", true);
		HttpResponse<String> accepted = api.post("alice", "/v2/mails/send", "application/json",
				MailApi.JSON.writeValueAsString(body));

		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
		long no = ((Number) MailApi.json(accepted).get("mail_no")).longValue();
		String path = jdbc.queryForObject("SELECT eml_path FROM mail_content WHERE no = ?", String.class, no);
		assertThat(Files.readString(store.resolve(path))).contains("saved above the reserve");
		assertThat(jdbc.queryForObject("SELECT size FROM mail_content WHERE no = ?", Long.class, no))
			.isEqualTo(Files.size(store.resolve(path)));
		assertThat(api.get("alice", "/v2/mails/" + no).statusCode()).isEqualTo(200);
		assertThat(meters.get("perflab.mail.storage.refusals").counter().count()).isEqualTo(refusedBefore);
	}
}
