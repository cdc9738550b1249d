package dev.perflab.load.lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load shapes beside the PROFILE's: a schedule of the scenario's own, a crowd that runs once, and checks judged
 * by name, a teardown's among them.
 */
class LoadShapesTest {

	@TempDir
	Path dir;

	@Test
	void runsTheScenariosOwnScheduleWithoutAWarmUp() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			Load load = Load.arrivals(List.of(new Segment(10, 10, Duration.ofSeconds(1)),
					new Segment(10, 20, Duration.ofMillis(500))), 10);
			int status = run(server, new ShapeProbe(load, true), "WARMUP=5s", "PROFILE=stress", "RATE=100");
			JsonNode m = summary();
			assertThat(status).isEqualTo(Runner.PASSED);
			// 10 in the first second, 7.5 while the rate climbs to 20: WARMUP, PROFILE and RATE are the scenario's
			assertThat(count(m, "iterations")).isBetween(17L, 18L).isEqualTo(server.received.get());
			assertThat(count(m, "iterations{scenario:warmup}")).isZero();
		}
	}

	@Test
	void runsEachPartOfAMixAtItsOwnRateTimesRate() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			int status = run(server, new MixProbe(), "RATE=2", "DURATION=1s", "WARMUP=500ms");
			JsonNode m = summary();
			assertThat(status).isEqualTo(Runner.PASSED);
			// a: 4/s for 0.5 s, then 8/s for 1 s; b: 2/s, then 4/s; each part sends only its own request
			assertThat(count(m, "http_reqs{name:a}")).isEqualTo(10);
			assertThat(count(m, "http_reqs{name:b}")).isEqualTo(5);
			assertThat(count(m, "iterations{scenario:main}")).isEqualTo(12);
			assertThat(count(m, "http_reqs")).isEqualTo(server.received.get());
			JsonNode budget = new ObjectMapper().readTree(Files.readString(this.dir.resolve("probe-summary.json")))
				.path("perflab")
				.path("vuBudget");
			assertThat(budget.findValuesAsText("scenario")).containsExactlyInAnyOrder("a", "b");
			assertThat(budget.findValues("peakRate").stream().map(JsonNode::asDouble)).containsExactlyInAnyOrder(8.0, 4.0);
			assertThat(m.path("vus_max").path("values").path("max").asInt()).isEqualTo(20);
		}
	}

	@Test
	void startsEachOfACrowdOnce() throws Exception {
		try (LocalServer server = new LocalServer(200)) {
			run(server, new ShapeProbe(Load.once(6, Duration.ofSeconds(10), Duration.ofSeconds(1)), true));
			JsonNode m = summary();
			assertThat(count(m, "iterations")).isEqualTo(6);
			assertThat(server.received.get()).isEqualTo(6);
			assertThat(m.path("vus").path("values").path("max").asInt()).isEqualTo(6);
		}
	}

	@Test
	void judgesChecksByNameAndCountsATeardownsCheck() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			int status = run(server,
					// 2 s: time for a busy machine to start JMeter's threads (at 500 ms, one run at nice 19 beside a
					// clean-clone run sent nothing before the crowd's time was up)
					new ShapeProbe(Load.closed(2, Duration.ofSeconds(2), Duration.ofSeconds(1)), false));
			JsonNode m = summary();
			assertThat(status).isEqualTo(Runner.THRESHOLDS_CROSSED);
			JsonNode ok = m.path("checks{check:ok is 200}");
			assertThat(ok.path("values").path("passes").asLong()).isPositive().isEqualTo(count(m, "http_reqs"));
			assertThat(ok.path("thresholds").path("rate==1").path("ok").asBoolean()).isTrue();
			JsonNode after = m.path("checks{check:after the run}");
			assertThat(after.path("values").path("fails").asLong()).isEqualTo(1);
			assertThat(after.path("thresholds").path("rate==1").path("ok").asBoolean()).isFalse();
		}
	}

	private int run(LocalServer server, Scenario scenario, String... settings) throws IOException, InterruptedException {
		Map<String, String> env = Map.of("BASE_URL", server.url(), "TOKEN", "t0", "SUMMARY_DIR", this.dir.toString(),
				"TESTID", "shapes-test", "LATE_AFTER", "60s");   // exact counts: nothing dropped for a busy machine
		return Runner.run(scenario, Settings.of(env, List.of(settings)));
	}

	private JsonNode summary() throws IOException {
		return new ObjectMapper().readTree(Files.readString(this.dir.resolve("probe-summary.json"))).path("metrics");
	}

	private static long count(JsonNode metrics, String name) {
		return metrics.path(name).path("values").path("count").asLong();
	}

}
