package dev.perflab.load.reliability;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * outage.js's judgement of each answer: a success (a redirect too) or a 503 problem+json with Retry-After, and every
 * request served before the outage and after its grace.
 */
class OutageJudgeTest {

	private static final long START = 1_000_000;

	private final CrashJudgeTest.Recorded recorded = new CrashJudgeTest.Recorded();

	/** The store down from 5 s for 20 s, 15 s of grace: after from 40 s. */
	private final OutageJudge judge = new OutageJudge(START, 5, 20, 15, 10000, this.recorded);

	@Test
	void servesBeforeAndAfterAndRefusesRightlyMeanwhile() {
		String refused = "HTTP/1.1 503 x\nContent-Type: application/problem+json\nRetry-After: 2\n";
		this.judge.judge("redirect", answer(302, "HTTP/1.1 302 Found\nLocation: https://example.com\n", 1.0));
		this.judge.judge("route", answer(503, refused, 6.0));
		// in the grace a refusal is still right: the service is not held to serving yet
		this.judge.judge("route", answer(503, refused, 30.0));
		this.judge.judge("route", answer(200, "HTTP/1.1 200 OK\n", 40.0));
		assertThat(this.recorded.counts).containsEntry("outage_refused_503", 2).doesNotContainKey("outage_bad_answers");
		assertThat(this.recorded.rates).containsExactly(true, true);
		assertThat(this.recorded.checkNames).contains(
				"redirect: a success or a 503 problem+json with Retry-After, within 10000 ms");
		assertThat(this.recorded.printed).isEmpty();
	}

	@Test
	void aServerErrorOrA503WithoutRetryAfterIsBad() {
		this.judge.judge("mail list", answer(500, "HTTP/1.1 500 x\n", 10.0));
		this.judge.judge("mail list", answer(503, "HTTP/1.1 503 x\nContent-Type: application/problem+json\n", 41.0));
		assertThat(this.recorded.counts).containsEntry("outage_bad_answers", 2).doesNotContainKey("outage_refused_503");
		assertThat(this.recorded.rates).containsExactly(false);
		assertThat(this.recorded.warnings).containsExactly("outage mail list: 500 in 5 ms at 10.0 s  {}",
				"after mail list: 503 in 5 ms at 41.0 s  {}", "after mail list: not served, 503 in 5 ms at 41.0 s");
	}

	private static Answer answer(int status, String headers, double at) {
		return new Answer(status, headers, "{}".getBytes(StandardCharsets.UTF_8), START + Math.round(at * 1000), 5, "");
	}

}
