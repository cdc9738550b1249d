package dev.perflab.load.office;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The office day: its mix and each request held to its own service's SLO.
 */
class OfficeDayTest {

	@Test
	void holdsEachRequestToItsServicesSloWithWhatTheDayStates() {
		List<String> rules = new OfficeDay().thresholds(Settings.of(Map.of(), List.of()))
			.list(true)
			.stream()
			.map((t) -> t.key() + " " + t.rule())
			.toList();
		assertThat(rules).containsExactly("http_req_failed{scenario:main} rate<0.01", "checks{scenario:main} rate>0.99",
				"http_req_duration{name:list,scenario:main} p(95)<500",
				// the day reads mails under 100 KB only: its own statement, not the 1500 ms of every EML shape
				"http_req_duration{name:read,scenario:main} p(95)<500",
				"http_req_duration{name:send,scenario:main} p(95)<500",
				"http_req_duration{name:create,scenario:main} p(95)<300",
				"http_req_duration{name:redirect,scenario:main} p(95)<100",
				"http_req_duration{name:redirect,scenario:main} p(99)<250",
				"http_req_duration{name:points,scenario:main} p(95)<1000",
				"http_req_duration{name:sign,scenario:main} p(95)<100");
	}

	@Test
	void readsTheListedMailsUnder100KbInTurn() throws Exception {
		JsonNode mails = new ObjectMapper().readTree("""
				[{"no":7,"size":4000},{"no":8,"size":22000000},{"no":9,"size":99999}]""");
		assertThat(OfficeDay.pick(mails, 0)).isEqualTo("7");
		assertThat(OfficeDay.pick(mails, 1)).isEqualTo("9");
		assertThat(OfficeDay.pick(mails, 2)).isEqualTo("7");
		assertThat(OfficeDay.pick(new ObjectMapper().readTree("[{\"no\":8,\"size\":712000}]"), 0)).isEmpty();
	}

	@Test
	void mixesMostlyMailboxReading() {
		assertThat(OfficeDay.MIX).containsExactly(Map.entry("mailbox", 8.0), Map.entry("send", 1.0),
				Map.entry("links", 2.0), Map.entry("routes", 2.0), Map.entry("guestbook", 2.0));
	}

}
