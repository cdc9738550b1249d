package dev.perflab.load.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.Runner;
import dev.perflab.load.lib.Settings;
import dev.perflab.load.lib.SetupFailed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * reliability-outage against a loopback server that answers as the services do and refuses everything for a second
 * (503 problem+json with Retry-After): the run passes with its counters; a 500 meanwhile fails it.
 */
class ReliabilityOutageTest {

	private static final ObjectMapper JSON = new ObjectMapper();

	@TempDir
	Path dir;

	@Test
	void redisGoneForASecondIsRefusedRightlyAndServedBeforeAndAfter() throws Exception {
		long start = System.currentTimeMillis() + 2000;
		try (FakeGateway gateway = new FakeGateway(start + 500, start + 1500, 503); Console console = new Console()) {
			int status = run(gateway, "STORE=redis", "START_MS=" + start, "OUTAGE_AT=0.5", "OUTAGE_FOR=1", "GRACE=0.5",
					"DURATION=3s", "RATE=20", "CALLER_TOKENS=t1 t2");
			JsonNode m = summary("outage-redis").path("metrics");
			assertThat(status).as(console.err()).isEqualTo(Runner.PASSED);
			assertThat(count(m, "outage_bad_answers")).isZero();
			assertThat(count(m, "outage_refused_503")).isPositive();
			JsonNode served = m.path("outage_served_before_and_after").path("values");
			assertThat(served.path("rate").asDouble()).isEqualTo(1.0);
			assertThat(served.path("passes").asLong()).isPositive();
			// every request that needs a store: MariaDB's and MongoDB's
			for (String name : List.of("mail-list", "route", "sign", "create", "describe", "redirect")) {
				assertThat(count(m, "http_reqs{name:" + name + "}")).as(name).isPositive();
			}
			// a redirect answered, not followed; asked as anyone, the others as the callers
			assertThat(gateway.followed.get()).isZero();
			List<String> received = gateway.received();
			assertThat(received).filteredOn((r) -> r.startsWith("GET /s/")).isNotEmpty().allMatch((r) -> r.endsWith(" -"));
			// the setup's create is the first caller's; the load's are each VU's
			assertThat(received).filteredOn((r) -> r.startsWith("POST /v1/short-links"))
				.anyMatch((r) -> r.endsWith("Bearer_t2"));
			assertThat(console.lines("ANSWER ")).isEmpty();
		}
	}

	@Test
	void aStoreFailingRequestsFailsTheRun() throws Exception {
		long start = System.currentTimeMillis() + 1000;
		try (FakeGateway gateway = new FakeGateway(start + 1000, start + 2000, 500); Console console = new Console()) {
			int status = run(gateway, "STORE=mariadb", "START_MS=" + start, "OUTAGE_AT=1", "OUTAGE_FOR=1", "GRACE=0",
					"DURATION=3s", "RATE=10", "TOKEN=t1");
			JsonNode m = summary("outage-mariadb").path("metrics");
			assertThat(status).isEqualTo(Runner.THRESHOLDS_CROSSED);
			assertThat(count(m, "outage_bad_answers")).isPositive();
			assertThat(m.path("outage_bad_answers{scenario:main}").path("thresholds").path("count==0").path("ok").asBoolean())
				.isFalse();
			assertThat(count(m, "http_reqs{name:create}")).isZero();
			assertThat(console.err()).containsPattern("outage (mail list|route|guestbook signing): 500 in \\d+ ms");
		}
	}

	@Test
	void anUnknownStoreFailsItsSetupNamingIt() throws Exception {
		try (FakeGateway gateway = new FakeGateway(0, 0, 503)) {
			assertThatThrownBy(() -> run(gateway, "STORE=cassandra")).hasRootCauseInstanceOf(SetupFailed.class)
				.rootCause()
				.hasMessage("no outage requests for STORE=cassandra: one of mariadb, mongo-wire, redis");
			assertThat(gateway.received()).isEmpty();
		}
	}

	private int run(FakeGateway gateway, String... settings) {
		Map<String, String> env = Map.of("BASE_URL", gateway.url(), "TOKEN", "t1", "SUMMARY_DIR", this.dir.toString(),
				"TESTID", "outage-test", "LATE_AFTER", "60s");
		try {
			return Runner.run(new ReliabilityOutage(), Settings.of(env, List.of(settings)));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private JsonNode summary(String name) throws Exception {
		return JSON.readTree(Files.readString(this.dir.resolve(name + "-summary.json")));
	}

	private static long count(JsonNode metrics, String name) {
		return metrics.path(name).path("values").path("count").asLong();
	}

}
