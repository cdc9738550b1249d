package dev.perflab.load.mail;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Seed 000's two load shapes: each its crowd, its summary's name and its SLO for mail/load.
 */
class MailLoadTest {

	@Test
	void listsWithTwoHundredCallersAgainstTheListsLoadSlo() {
		Settings settings = settings();
		assertThat(new MailLoad().summaryName(settings)).isEqualTo("mail-list");
		assertThat(new MailLoad().load(settings)).isEqualTo(Load.closed(200, Duration.ofSeconds(60), Duration.ofSeconds(30)));
		assertThat(rules(settings)).containsExactly("http_req_failed rate<0.01", "http_req_duration{name:list} p(95)<2000");
	}

	@Test
	void readsTheLargeMailWithEightyCallers() {
		Settings settings = settings("SCENARIO=read-large", "DURATION=10s");
		assertThat(new MailLoad().summaryName(settings)).isEqualTo("mail-read-large");
		assertThat(new MailLoad().load(settings)).isEqualTo(Load.closed(80, Duration.ofSeconds(10), Duration.ofSeconds(30)));
		assertThat(rules(settings)).containsExactly("http_req_failed rate<0.01",
				"http_req_duration{name:read-large} p(95)<10000");
	}

	@Test
	void refusesAnUnknownShape() {
		assertThatThrownBy(() -> new MailLoad().load(settings("SCENARIO=read"))).isInstanceOf(BadInput.class)
			.hasMessage("SCENARIO=read: one of list, read-large");
	}

	private static List<String> rules(Settings settings) {
		return new MailLoad().thresholds(settings).list(false).stream().map((t) -> t.key() + " " + t.rule()).toList();
	}

	private static Settings settings(String... values) {
		return Settings.of(Map.of(), List.of(values));
	}

}
