package dev.perflab.load.shortener;

import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reads under a deleted pod: no request may fail; their latency is judged unless LATENCY=printed.
 */
class ShortenerReadsTest {

	@Test
	void judgesLatencyByTheReadStressSlo() {
		assertThat(rules()).containsExactly("http_req_failed rate==0", "checks rate==1", "http_req_duration p(95)<1000",
				"http_req_duration p(99)<1000");
	}

	@Test
	void judgesFailuresOnlyWhenLatencyIsPrinted() {
		assertThat(rules("LATENCY=printed")).containsExactly("http_req_failed rate==0", "checks rate==1");
	}

	private static List<String> rules(String... values) {
		return new ShortenerReads().thresholds(Settings.of(Map.of(), List.of(values)))
			.list(false)
			.stream()
			.map((t) -> t.key() + " " + t.rule())
			.toList();
	}

}
