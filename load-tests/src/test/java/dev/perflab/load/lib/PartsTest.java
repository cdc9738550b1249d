package dev.perflab.load.lib;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

import static dev.perflab.load.lib.Check.check;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * Parts of different kinds side by side ({@link Load.Parts}): arrivals of their own beside a crowd looping for its
 * duration, each part running only its own steps, and the run over once both are, not at the open part's tail.
 */
class PartsTest {

	@TempDir
	Path dir;

	@Test
	void runsArrivalsBesideACrowdAndEndsWhenBothAreOver() throws Exception {
		try (LocalServer server = new LocalServer(100)) {
			Map<String, Load> parts = new LinkedHashMap<>();
			parts.put("open", Load.arrivals(List.of(new Segment(10, 10, Duration.ofSeconds(1))), 10));
			parts.put("crowd", Load.closed(2, Duration.ofSeconds(1), Duration.ofSeconds(5)));
			Map<String, String> env = Map.of("BASE_URL", server.url(), "TOKEN", "t0", "SUMMARY_DIR", this.dir.toString(),
					"TESTID", "parts-test", "LATE_AFTER", "60s");
			int status = Runner.run(new PartsProbe(Load.parts(parts)), Settings.of(env, List.of()));
			JsonNode summary = new ObjectMapper().readTree(Files.readString(this.dir.resolve("probe-summary.json")));
			JsonNode m = summary.path("metrics");
			assertThat(status).isEqualTo(Runner.PASSED);
			assertThat(count(m, "http_reqs{name:open}")).isEqualTo(10);
			// two callers back to back for 1 s, 100 ms an answer: none starts after the crowd's second
			assertThat(count(m, "http_reqs{name:crowd}")).isBetween(10L, 22L);
			assertThat(count(m, "http_reqs")).isEqualTo(server.received.get());
			assertThat(count(m, "iterations")).isEqualTo(count(m, "http_reqs"));
			assertThat(count(m, "interrupted_iterations")).isZero();
			// over with its parts: the open part's tail (GRACEFUL_STOP + 5 s) is not waited for
			assertThat(summary.path("state").path("testRunDurationMs").asLong()).isLessThan(5000);
			JsonNode budget = summary.path("perflab").path("vuBudget");
			assertThat(budget.findValuesAsText("scenario")).containsExactly("open");
			assertThat(m.path("vus_max").path("values").path("max").asInt()).isEqualTo(12);
		}
	}

	@Test
	void takesArrivalsAndCrowdsOnly() {
		assertThatThrownBy(() -> Load.parts(Map.of("a", Load.open(1, 1)))).isInstanceOf(IllegalArgumentException.class)
			.hasMessageStartingWith("part a: arrivals or a closed crowd");
	}

	private static long count(JsonNode metrics, String name) {
		return metrics.path(name).path("values").path("count").asLong();
	}

	/** GET /ok named after the part that sends it. */
	private record PartsProbe(Load load) implements Scenario {

		@Override
		public String name() {
			return "probe";
		}

		@Override
		public Load load(Settings settings) {
			return this.load;
		}

		@Override
		public Thresholds thresholds(Settings settings) {
			return Thresholds.of(Slo.of("shortener"), null).failures();
		}

		@Override
		public List<ThreadGroupChild> iteration(Context context) {
			return List.of(Mix.part("open", request(context, "open")), Mix.part("crowd", request(context, "crowd")));
		}

		private static ThreadGroupChild request(Context context, String name) {
			return httpSampler(name, context.baseUrl() + "/ok").children(check(name + " is 200", (r) -> r.status() == 200));
		}

	}

}
