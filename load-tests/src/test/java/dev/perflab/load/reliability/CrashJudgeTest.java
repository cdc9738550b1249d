package dev.perflab.load.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * crash.js's judgement of each answer: the phases per VU and kind, the cut at a kill, the printed lines.
 */
class CrashJudgeTest {

	private static final long START = 1_000_000;

	private static final String OK_HEADERS = "HTTP/1.1 200 OK\nContent-Type: application/json\nX-Request-Id: r-1\n";

	private static final String REFUSED_HEADERS = "HTTP/1.1 503 Service Unavailable\n"
			+ "Content-Type: application/problem+json\nRetry-After: 1\nX-Request-Id: r-2\n";

	private static final CrashJudge.Kind READ = new CrashJudge.Kind("link describe", null, null);

	private static final CrashJudge.Kind STREAM = new CrashJudge.Kind("points stream", null,
			(res, vu) -> res.body().length == 4 && res.endsWith(']'));

	private final Recorded recorded = new Recorded();

	private final Vu vu = new Vu(1, "t1");

	@Test
	void aVuIsAfterFromItsFirstWholeSuccessOnceItSawTheServiceAway() {
		CrashJudge judge = judge("kill");
		judge.judge(READ, answer(200, OK_HEADERS, "{}", 1.0), this.vu);
		judge.judge(READ, answer(503, REFUSED_HEADERS, "{}", 6.0), this.vu);
		assertThat(this.vu.seen).containsEntry("link describe", "seen down");
		// the first success back is still in the down phase: it marks the VU's after phase for this kind
		judge.judge(READ, answer(200, OK_HEADERS, "{}", 7.0), this.vu);
		assertThat(this.vu.seen).containsEntry("link describe", "back");
		judge.judge(READ, answer(200, OK_HEADERS, "{}", 8.0), this.vu);
		assertThat(this.recorded.counts).containsEntry("crash_refused_503", 1)
			.containsEntry("crash_after_requests", 1)
			.doesNotContainKey("crash_bad_answers");
		assertThat(this.recorded.rates).containsExactly(true, true);
		assertThat(this.recorded.checks).containsExactly(true, true, true, true);
		assertThat(this.recorded.printed).containsExactly("ANSWER r-1 200 whole", "ANSWER r-2 503 whole",
				"ANSWER r-1 200 whole", "ANSWER r-1 200 whole");
		// another kind of the same VU is not after yet
		judge.judge(STREAM, answer(200, OK_HEADERS, "[00]", 9.0), this.vu);
		assertThat(this.recorded.rates).hasSize(2);
	}

	@Test
	void afterBackByEveryAnswerIsAfter() {
		CrashJudge judge = judge("kill");
		judge.judge(READ, answer(200, OK_HEADERS, "{}", 40.0), this.vu);
		assertThat(this.recorded.counts).containsEntry("crash_after_requests", 1);
		assertThat(this.recorded.rates).containsExactly(true);
	}

	@Test
	void aKillCutsWhatIsInFlightAtTheSignalOnly() {
		CrashJudge judge = judge("kill");
		// no answer 0.2 s after the signal, a body cut short 2.9 s after it: cut, not bad
		judge.judge(STREAM, answer(0, "", "", 5.2), this.vu);
		judge.judge(STREAM, answer(200, OK_HEADERS, "[0", 7.9), this.vu);
		assertThat(this.recorded.counts).containsEntry("crash_cut_at_kill", 2).doesNotContainKey("crash_bad_answers");
		assertThat(this.recorded.checks).isEmpty();
		assertThat(this.recorded.printed).containsExactly("ANSWER - 0 whole", "ANSWER r-1 200 cut");
		// the same 3.1 s after the signal, or 0.6 s before it: bad
		judge.judge(STREAM, answer(200, OK_HEADERS, "[0", 8.1), this.vu);
		judge.judge(STREAM, answer(0, "", "", 4.4), this.vu);
		assertThat(this.recorded.counts).containsEntry("crash_cut_at_kill", 2).containsEntry("crash_bad_answers", 2);
		assertThat(this.recorded.checks).containsExactly(false, false);
		assertThat(this.recorded.warnings.get(0))
			.startsWith("down points stream: 200 (body cut short: 2 bytes, no Content-Length, no encoding, id r-1) in 5 ms"
					+ " at 8.1 s");
		assertThat(this.recorded.warnings)
			.anyMatch((w) -> w.startsWith("before points stream: not served, 0 in 5 ms at 4.4 s"));
	}

	@Test
	void aTermCutsNothing() {
		CrashJudge judge = judge("term");
		judge.judge(STREAM, answer(0, "", "", 5.2), this.vu);
		assertThat(this.recorded.counts).containsEntry("crash_bad_answers", 1).doesNotContainKey("crash_cut_at_kill");
		// no answer at all is the service seen away too
		assertThat(this.vu.seen).containsEntry("points stream", "seen down");
	}

	@Test
	void aServerErrorAnUnmarked503OrASlowAnswerIsBad() {
		CrashJudge judge = judge("kill");
		judge.judge(READ, answer(500, "HTTP/1.1 500 Error\n", "{\"error\":1}", 6.0), this.vu);
		judge.judge(READ, answer(503, "HTTP/1.1 503 Unavailable\nContent-Type: text/plain\n", "busy", 6.0), this.vu);
		judge.judge(READ, new Answer(200, OK_HEADERS, new byte[2], START + 6000, 10_001, ""), this.vu);
		assertThat(this.recorded.counts).containsEntry("crash_bad_answers", 3).doesNotContainKey("crash_refused_503");
		assertThat(this.recorded.checkNames).containsOnly(
				"link describe: a whole success or a 503 problem+json with Retry-After, within 10000 ms");
		assertThat(this.recorded.warnings.get(0)).isEqualTo("down link describe: 500 in 5 ms at 6.0 s  {\"error\":1}");
	}

	@Test
	void printsEachCreateAnswered2xx() {
		CrashJudge judge = judge("kill");
		CrashJudge.Kind create = new CrashJudge.Kind("route create",
				(res, vu) -> new CrashJudge.Created(res.json("id"), "crash-r-" + vu.number), null);
		judge.judge(create, answer(201, OK_HEADERS, "{\"id\":42}", 1.0), this.vu);
		judge.judge(create, answer(503, REFUSED_HEADERS, "{}", 6.0), this.vu);
		assertThat(this.recorded.printed).containsExactly("ANSWER r-1 201 whole", "CREATED route 42 crash-r-1",
				"ANSWER r-2 503 whole");
		assertThat(this.recorded.counts).containsEntry("crash_created", 1);
	}

	@Test
	void writesNumbersAsJavaScriptDid() {
		assertThat(CrashJudge.number(10000)).isEqualTo("10000");
		assertThat(CrashJudge.number(2500.5)).isEqualTo("2500.5");
		assertThat(CrashJudge.seconds(4.25)).isEqualTo("4.3");
	}

	/** The service signalled at 5 s, back by 40 s at the latest, answers within 10 s. */
	private CrashJudge judge(String how) {
		return new CrashJudge("route", how, START, 5, 40, 10000, this.recorded);
	}

	/** An answer that ended {@code at} seconds after the start, in 5 ms. */
	private static Answer answer(int status, String headers, String body, double at) {
		return new Answer(status, headers, body.getBytes(StandardCharsets.UTF_8), START + Math.round(at * 1000), 5,
				status == 0 ? "Non HTTP response message: Connection reset" : "");
	}

	/** What a judge said. */
	static final class Recorded implements Verdicts {

		final Map<String, Integer> counts = new TreeMap<>();

		final List<Boolean> rates = new ArrayList<>();

		final List<Boolean> checks = new ArrayList<>();

		final List<String> checkNames = new ArrayList<>();

		final List<String> printed = new ArrayList<>();

		final List<String> warnings = new ArrayList<>();

		@Override
		public void count(String metric) {
			this.counts.merge(metric, 1, Integer::sum);
		}

		@Override
		public void rate(String metric, boolean value) {
			this.rates.add(value);
		}

		@Override
		public void check(String name, boolean passed) {
			this.checks.add(passed);
			this.checkNames.add(name);
		}

		@Override
		public void print(String line) {
			this.printed.add(line);
		}

		@Override
		public void warn(String line) {
			this.warnings.add(line);
		}

	}

}
