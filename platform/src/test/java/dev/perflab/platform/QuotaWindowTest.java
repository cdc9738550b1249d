package dev.perflab.platform;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuotaWindowTest {

	@Test
	void anHourStartsAtTheTopOfTheUtcHourAndADayAtUtcMidnight() {
		Instant t = Instant.parse("2026-03-04T05:06:07.890Z");
		assertThat(QuotaWindow.HOUR.start(t)).isEqualTo(Instant.parse("2026-03-04T05:00:00Z"));
		assertThat(QuotaWindow.HOUR.startUtc(t)).isEqualTo(LocalDateTime.parse("2026-03-04T05:00:00"));
		assertThat(QuotaWindow.DAY.start(t)).isEqualTo(Instant.parse("2026-03-04T00:00:00Z"));
		assertThat(QuotaWindow.day(t)).hasToString("2026-03-04");
		assertThat(new QuotaWindow(Duration.ofMinutes(15)).start(t)).isEqualTo(Instant.parse("2026-03-04T05:00:00Z"));
		assertThat(QuotaWindow.HOUR.start(Instant.parse("1969-12-31T23:30:00Z")))
			.as("before the epoch too").isEqualTo(Instant.parse("1969-12-31T23:00:00Z"));
	}

	@Test
	void theSecondsLeftAreRoundedUpAndNeverZero() {
		assertThat(QuotaWindow.DAY.secondsLeft(Instant.parse("2026-03-04T23:59:30Z"))).isEqualTo(30);
		assertThat(QuotaWindow.DAY.secondsLeft(Instant.parse("2026-03-04T23:59:59.001Z"))).isEqualTo(1);
		assertThat(QuotaWindow.HOUR.secondsLeft(Instant.parse("2026-03-04T05:00:00Z"))).isEqualTo(3600);
		assertThat(QuotaWindow.HOUR.secondsLeft(Instant.parse("2026-03-04T05:59:58.500Z"))).isEqualTo(2);
	}

	@Test
	void aRefusalIs429WithRetryAfterScopeAndLimit() {
		ProblemException refused = QuotaWindow.HOUR.refused("recipient-quota", "too many", Instant.parse(
				"2026-03-04T05:59:00Z"), "user", 2000);
		assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		assertThat(refused.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("60");
		assertThat(refused.getBody().getType()).hasToString(Problems.BASE + "recipient-quota");
		assertThat(refused.getBody().getProperties()).containsEntry("scope", "user").containsEntry("limit", 2000);
		assertThat(QuotaWindow.DAY.refused("point-quota", "x", Instant.EPOCH, null, 5L).getBody().getProperties())
			.doesNotContainKey("scope").containsEntry("limit", 5L);
	}

	@Test
	void aWindowIsAtLeastASecond() {
		assertThatThrownBy(() -> new QuotaWindow(Duration.ofMillis(999))).isInstanceOf(IllegalArgumentException.class);
	}
}
