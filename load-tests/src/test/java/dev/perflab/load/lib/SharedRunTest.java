package dev.perflab.load.lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Several runners sharing one run (RUNNERS, RUNNER_INDEX), each a whole run of its own against a real HTTP server on
 * loopback, one after the other: JMeter's engine is one per JVM.
 */
class SharedRunTest {

	@TempDir
	Path dir;

	@Test
	void threeRunnersSendWhatOneSendsAlone() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			String[] load = { "RATE=20", "DURATION=1s", "WARMUP=500ms" };
			assertThat(run(server, new ProbeScenario(20, 10), "whole", load)).isEqualTo(Runner.PASSED);
			long whole = count(summary("whole"), "http_reqs");
			List<Long> iterations = new ArrayList<>();
			long shared = 0;
			for (int index = 0; index < 3; index++) {
				assertThat(run(server, new ProbeScenario(20, 10), "runner" + index, load[0], load[1], load[2], "RUNNERS=3",
						"RUNNER_INDEX=" + index))
					.isEqualTo(Runner.PASSED);
				JsonNode summary = summary("runner" + index);
				shared += count(summary, "http_reqs");
				iterations.add(count(summary, "iterations"));
				assertThat(summary.path("perflab").path("runnerIndex").asInt()).isEqualTo(index);
			}
			// within one a runner of the whole run's count (here exactly: each takes every third arrival)
			assertThat(shared).isCloseTo(whole, within(3L)).isEqualTo(50);
			assertThat(iterations).containsExactly(9L, 8L, 8L);
			assertThat(server.received.get()).isEqualTo(2 * whole);
		}
	}

	@Test
	void splitsAClosedModelsVusTheFirstRunnersTakingOneMore() throws Exception {
		try (LocalServer server = new LocalServer(20)) {
			List<Integer> vus = new ArrayList<>();
			for (int index = 0; index < 3; index++) {
				run(server, ProbeScenario.closed(5), "closed" + index, "DURATION=500ms", "RUNNERS=3",
						"RUNNER_INDEX=" + index);
				vus.add(summary("closed" + index).path("metrics").path("vus_max").path("values").path("max").asInt());
			}
			assertThat(vus).containsExactly(2, 2, 1);
		}
	}

	@Test
	void aRunnerWithoutVusSendsNothingAndPasses() throws Exception {
		try (LocalServer server = new LocalServer(0)) {
			int status = run(server, ProbeScenario.closed(2), "idle", "DURATION=500ms", "RUNNERS=3", "RUNNER_INDEX=2");
			assertThat(status).isEqualTo(Runner.PASSED);
			assertThat(server.received.get()).isZero();
			JsonNode metrics = summary("idle").path("metrics");
			assertThat(count(summary("idle"), "http_reqs")).isZero();
			assertThat(metrics.path("http_req_failed").path("thresholds").path("rate<0.01").path("ok").asBoolean()).isTrue();
		}
	}

	@Test
	void labelsEachRunnerByItsPlaceUnlessRunnerNamesIt() {
		Settings indexed = Settings.of(Map.of("RUNNERS", "3", "JOB_COMPLETION_INDEX", "2"), List.of());
		assertThat(indexed.share()).isEqualTo(new Share(3, 2));
		assertThat(indexed.runner()).contains("3");
		assertThat(Settings.of(Map.of("JOB_COMPLETION_INDEX", "2"), List.of("RUNNERS=3", "RUNNER_INDEX=0")).runner())
			.contains("1");
		assertThat(Settings.of(Map.of(), List.of("RUNNERS=3", "RUNNER=eu-1")).runner()).contains("eu-1");
		assertThat(Settings.of(Map.of(), List.of()).runner()).isEmpty();
	}

	@Test
	void numbersVusAndIterationsInTheWholeRun() {
		Share share = new Share(3, 1);
		// 7 VUs: 3, 2, 2
		assertThat(share.vus(7)).isEqualTo(2);
		assertThat(share.firstVu(7)).isEqualTo(3);
		assertThat(new Share(3, 0).vus(7)).isEqualTo(3);
		assertThat(new Share(3, 2).firstVu(7)).isEqualTo(5);
		assertThat(share.number(4)).isEqualTo(13);
	}

	private int run(LocalServer server, Scenario scenario, String name, String... settings)
			throws IOException, InterruptedException {
		Map<String, String> env = new HashMap<>();
		env.put("BASE_URL", server.url());
		env.put("TOKEN", "t0");
		env.put("SUMMARY_DIR", this.dir.toString());
		env.put("SUMMARY_NAME", name);
		env.put("TESTID", "shared-test");
		env.put("LATE_AFTER", "60s");   // exact counts: nothing dropped for a busy machine
		return Runner.run(scenario, Settings.of(env, List.of(settings)));
	}

	private JsonNode summary(String name) throws IOException {
		return new ObjectMapper().readTree(Files.readString(this.dir.resolve(name + "-summary.json")));
	}

	private static long count(JsonNode summary, String metric) {
		return summary.path("metrics").path(metric).path("values").path("count").asLong();
	}

}
