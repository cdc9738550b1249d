package dev.perflab.shortener;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

class ShortenerPropertiesTest {

	@Test
	void theCodeKeyIsNeverPrinted() {
		String key = "c2VjcmV0LWNvZGUta2V5LW9mLTMyLWJ5dGVzLi4uLi4=";
		ShortenerProperties properties = new ShortenerProperties(ShortenerProperties.IdStrategy.SNOWFLAKE,
				"http://127.0.0.1:8080", key, new ShortenerProperties.Cache(Duration.ofMinutes(10), Duration.ofSeconds(30)),
				new ShortenerProperties.Edge(Duration.ofSeconds(30), Duration.ofSeconds(2)),
				new ShortenerProperties.Hits(Duration.ofSeconds(1)),
				new ShortenerProperties.Worker(Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofMillis(50),
						Duration.ofSeconds(60)),
				new ShortenerProperties.Quota(500, 10_000, DataSize.ofKilobytes(512), DataSize.ofMegabytes(8),
						Duration.ofDays(1)));
		assertThat(properties.toString()).doesNotContain(key).contains("codeKey=(set)").contains("idStrategy=SNOWFLAKE");
	}
}
