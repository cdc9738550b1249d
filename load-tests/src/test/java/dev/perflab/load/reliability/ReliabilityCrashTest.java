package dev.perflab.load.reliability;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Runner;
import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * reliability-crash against a loopback server that answers as the services do, goes away (503 problem+json with
 * Retry-After) for a second and comes back: the run passes with its counters, prints each answer and each create, and
 * ends through its control endpoint as its caller ends it; a 500 while the service is away fails it; an unknown
 * SERVICE fails its setup.
 */
class ReliabilityCrashTest {

	private static final Pattern ANSWER = Pattern.compile("ANSWER (\\S+) (\\d+) (whole|cut)");

	private static final Pattern LISTENING = Pattern.compile("control: listening on (\\S+)");

	private static final ObjectMapper JSON = new ObjectMapper();

	@TempDir
	Path dir;

	@Test
	void aRouteGoneForASecondIsServedBeforeAndAfterWithItsStreamsAndEndsAtItsStop() throws Exception {
		long start = System.currentTimeMillis() + 2500;
		try (FakeGateway gateway = new FakeGateway(start + 500, start + 1500, 503); Console console = new Console()) {
			CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> run(gateway, "SERVICE=route",
					"START_MS=" + start, "DOWN_AT=0.5", "BACK_BY=60", "DURATION=30s", "RATE=40", "RUN=r7",
					"CALLER_TOKENS=t1 t2 t3", "CONTROL=127.0.0.1:0"));
			String control = address(console);
			// the service is back at 1.5 s: 1.5 s of after phase, then the caller ends the run
			Thread.sleep(Math.max(0, start + 3000 - System.currentTimeMillis()));
			HttpResponse<String> stop = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://" + control + "/v1/stop"))
					.POST(HttpRequest.BodyPublishers.noBody())
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(stop.statusCode()).isEqualTo(200);
			assertThat(run.get(60, TimeUnit.SECONDS)).as(console.err()).isEqualTo(Runner.STOPPED);

			JsonNode summary = summary("crash-route");
			JsonNode m = summary.path("metrics");
			assertThat(summary.path("perflab").path("stoppedBy").asText()).isEqualTo("control");
			assertThat(count(m, "crash_bad_answers")).as(console.err()).isZero();
			assertThat(count(m, "crash_cut_at_kill")).isZero();
			assertThat(count(m, "crash_refused_503")).isPositive();
			assertThat(count(m, "crash_after_requests")).isPositive();
			assertThat(m.path("crash_served_before_and_after").path("values").path("rate").asDouble()).isEqualTo(1.0);
			assertThat(count(m, "http_reqs{name:points}")).isPositive();
			assertThat(count(m, "http_reqs{name:create}")).isPositive();
			assertThat(count(m, "http_reqs{name:read}")).isPositive();
			assertThat(summary.path("perflab").path("vuBudget").findValuesAsText("scenario")).containsExactly("crash");
			for (String key : List.of("crash_bad_answers{scenario:main}", "crash_created{scenario:main}",
					"crash_served_before_and_after{scenario:main}", "crash_after_requests{scenario:main}")) {
				assertThat(m.path(key).path("thresholds").elements().next().path("ok").asBoolean()).as(key).isTrue();
			}

			// every answer printed once, by the id its request carried: <name>-<part>-<VU>-<iteration>-<RUN>
			List<String> answers = console.lines("ANSWER ");
			assertThat(answers).hasSize((int) count(m, "http_reqs"));
			Set<String> ids = new HashSet<>();
			Map<String, Integer> statuses = new HashMap<>();
			for (String line : answers) {
				Matcher a = ANSWER.matcher(line);
				assertThat(a.matches()).as(line).isTrue();
				assertThat(a.group(1)).matches("(create|read)-crash-\\d+-\\d+-r7|points-streams-\\d+-\\d+-r7");
				assertThat(a.group(3)).isEqualTo("whole");
				assertThat(ids.add(a.group(1))).as("printed once: " + a.group(1)).isTrue();
				statuses.merge(a.group(2), 1, Integer::sum);
			}
			assertThat(statuses).containsOnlyKeys("200", "201", "503");
			// what the server got: each of those ids once, as one of the callers
			List<String> load = gateway.received().stream().filter((r) -> r.contains("-r7 ")).toList();
			assertThat(load).hasSize(answers.size()).allMatch((r) -> r.matches(".* Bearer_t[123]"));

			// every create answered 2xx, by its id and its marker crash-<RUN>-<VU>-<iteration>
			List<String> created = console.lines("CREATED ");
			assertThat(created).hasSize((int) count(m, "crash_created")).isNotEmpty()
				.allMatch((line) -> line.matches("CREATED route \\d+ crash-r7-\\d+-\\d+"));
			assertThat(created.stream().map((line) -> line.split(" ")[3]).distinct()).hasSize(created.size());
		}
	}

	@Test
	void aMailFailingWhileAwayFailsTheRun() throws Exception {
		long start = System.currentTimeMillis() + 1000;
		try (FakeGateway gateway = new FakeGateway(start + 1000, start + 2000, 500); Console console = new Console()) {
			int status = run(gateway, "SERVICE=mail", "START_MS=" + start, "DOWN_AT=1", "DURATION=3s", "RATE=20",
					"RUN=r8", "TOKEN=t1", "READER_TOKENS=b1 b2");
			assertThat(status).isEqualTo(Runner.THRESHOLDS_CROSSED);
			JsonNode m = summary("crash-mail").path("metrics");
			assertThat(count(m, "crash_bad_answers")).isPositive();
			assertThat(m.path("crash_bad_answers{scenario:main}").path("thresholds").path("count==0").path("ok").asBoolean())
				.isFalse();
			assertThat(count(m, "http_reqs{name:send}")).isPositive();
			assertThat(count(m, "http_reqs{name:mailboxes}")).isPositive();
			// the streams read the readers' own mails, each the mail's whole length, in turn
			assertThat(count(m, "http_reqs{name:eml}")).isPositive();
			assertThat(gateway.received()).filteredOn((r) -> r.contains("/eml eml-streams-"))
				.anyMatch((r) -> r.endsWith("Bearer_b1"))
				.anyMatch((r) -> r.endsWith("Bearer_b2"));
			assertThat(console.lines("ANSWER ")).anyMatch((line) -> line.matches("ANSWER send-crash-\\d+-\\d+-r8 500 whole"));
			assertThat(console.lines("CREATED ")).isNotEmpty()
				.allMatch((line) -> line.matches("CREATED mail \\d+ crash-r8-\\d+-\\d+"));
			assertThat(console.err()).containsPattern("down mail send: 500 in \\d+ ms at 1\\.\\d s");
		}
	}

	@Test
	void anUnknownServiceFailsItsSetupNamingIt() throws Exception {
		try (FakeGateway gateway = new FakeGateway(0, 0, 503)) {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			Process runner = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
					"dev.perflab.load.LoadRunner", "run", "reliability-crash", "SERVICE=ftp", "BASE_URL=" + gateway.url(),
					"TOKEN=t1", "SUMMARY_DIR=" + this.dir)
				.redirectErrorStream(true)
				.start();
			String output = new String(runner.getInputStream().readAllBytes());
			assertThat(runner.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(runner.exitValue()).as(output).isEqualTo(107);
			assertThat(output).contains("setup failed: no crash requests for SERVICE=ftp");
			assertThat(gateway.received()).isEmpty();
		}
	}

	@Test
	void streamsBesideTheArrivalsForTheRouteAndMailOnly() {
		Settings route = Settings.of(Map.of(), List.of("SERVICE=route", "RATE=4", "DURATION=9s", "STREAMS=2"));
		assertThat(new ReliabilityCrash().load(route)).isInstanceOfSatisfying(Load.Parts.class,
				(p) -> assertThat(p.parts()).containsOnlyKeys("crash", "streams")
					.containsEntry("streams", Load.closed(2, Duration.ofSeconds(9), Duration.ofSeconds(30))));
		Settings send = Settings.of(Map.of(), List.of("SERVICE=send"));
		assertThat(new ReliabilityCrash().load(send)).isInstanceOfSatisfying(Load.Parts.class,
				(p) -> assertThat(p.parts()).containsOnlyKeys("crash"));
		assertThat(new ReliabilityCrash().summaryName(send)).isEqualTo("crash-send");
	}

	private int run(FakeGateway gateway, String... settings) {
		Map<String, String> env = Map.of("BASE_URL", gateway.url(), "TOKEN", "t1", "SUMMARY_DIR", this.dir.toString(),
				"TESTID", "crash-test", "LATE_AFTER", "60s");
		try {
			return Runner.run(new ReliabilityCrash(), Settings.of(env, List.of(settings)));
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String address(Console console) throws InterruptedException {
		for (int i = 0; i < 3000; i++) {
			Matcher m = LISTENING.matcher(console.out());
			if (m.find()) {
				return m.group(1);
			}
			Thread.sleep(10);
		}
		throw new AssertionError("no control address printed: " + console.out());
	}

	private JsonNode summary(String name) throws Exception {
		return JSON.readTree(Files.readString(this.dir.resolve(name + "-summary.json")));
	}

	private static long count(JsonNode metrics, String name) {
		return metrics.path(name).path("values").path("count").asLong();
	}

}
