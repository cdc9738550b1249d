package dev.perflab.load.verdict;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;

import com.google.protobuf.CodedOutputStream;

import org.xerial.snappy.Snappy;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.perflab.load.lib.Phase;
import dev.perflab.load.prometheus.Exporter;
import dev.perflab.load.verdict.VerdictTest.Ran;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The verdict against a real Prometheus, the local stack's binary (scripts/stack/install.sh) started on a free
 * loopback port with the stack's flags: runs written by the runner's own exporter, runner pods' CPU as cAdvisor's
 * series (remote-written here), read back through the query API.
 */
class VerdictPrometheusTest {

	private static final Path BINARY = Path.of("/usr/bin/prometheus");

	@TempDir
	static Path dir;

	private static Process prometheus;

	private static String url;

	@BeforeAll
	static void start() throws Exception {
		assumeTrue(Files.isExecutable(BINARY), "no Prometheus binary at " + BINARY
				+ " (scripts/stack/install.sh installs it): the verdict against a real Prometheus is not run");
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			port = socket.getLocalPort();
		}
		url = "http://127.0.0.1:" + port;
		Path config = Files.writeString(dir.resolve("prometheus.yml"), "global: { scrape_interval: 1m }\n");
		prometheus = new ProcessBuilder(BINARY.toString(), "--config.file=" + config,
				"--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
				"--web.enable-remote-write-receiver", "--enable-feature=native-histograms")
			.redirectErrorStream(true)
			.redirectOutput(dir.resolve("prometheus.log").toFile())
			.start();
		HttpClient http = HttpClient.newHttpClient();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (true) {
			assertThat(prometheus.isAlive()).as("Prometheus exited: %s", log()).isTrue();
			try {
				HttpResponse<Void> ready = http.send(HttpRequest.newBuilder(URI.create(url + "/-/ready")).build(),
						HttpResponse.BodyHandlers.discarding());
				if (ready.statusCode() == 200) {
					break;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			assertThat(System.nanoTime()).as("Prometheus not ready in 15 s: %s", log()).isLessThan(deadline);
			Thread.sleep(100);
		}
		// two runners of one run: 200 requests, one failed, durations 1 ms to 200 ms
		for (String runner : new String[] { "r1", "r2" }) {
			try (Exporter exporter = new Exporter(url + "/api/v1/write",
					Map.of("testid", "verdict-pass", "scenario", "verdict-test", "runner", runner))) {
				for (int i = 1; i <= 100; i++) {
					boolean ok = !(runner.equals("r2") && i == 100);
					exporter.request(Phase.MAIN, "read", ok ? "200" : "500", ok, i / 500.0);
					exporter.iteration(Phase.MAIN);
				}
			}
		}
		// two runner pods' cAdvisor series up to now (one at 90% of its 1.5-core quota, throttled in 60% of its
		// periods; one at 20%), then their run
		long now = System.currentTimeMillis();
		writeCadvisor(now, "verdict-cpu-0-a", 1.35, 6);
		writeCadvisor(now, "verdict-cpu-1-b", 0.3, 0);
		try (Exporter exporter = new Exporter(url + "/api/v1/write",
				Map.of("testid", "verdict-cpu", "scenario", "verdict-test"))) {
			exporter.request(Phase.MAIN, "read", "200", true, 0.01);
		}
		// one runner, no runner label, that dropped iterations
		try (Exporter exporter = new Exporter(url + "/api/v1/write",
				Map.of("testid", "verdict-dropped", "scenario", "verdict-test"))) {
			exporter.request(Phase.MAIN, "read", "200", true, 0.01);
			exporter.dropped(Phase.MAIN, "late");
		}
	}

	@AfterAll
	static void stop() throws InterruptedException {
		if (prometheus != null) {
			prometheus.destroy();
			if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
				prometheus.destroyForcibly();
			}
		}
	}

	@Test
	void passesARunWithinItsLimits() throws Exception {
		Ran ran = VerdictTest.verdict("PROMETHEUS_URL=" + url, "TESTID=verdict-pass");
		assertThat(ran.exit()).as(ran.toString()).isEqualTo(Verdict.PASS);
		assertThat(ran.out()).startsWith("run verdict-pass: 200 requests from 2 runner(s), 1 failed, p95 0.")
			.contains("of all 200 request durations", "generator: runners' CPU not asked (no RUNNER_PODS), 0 iteration(s) dropped",
					"✓ the run's p95 is under 0.5 s")
			.endsWith("verdict: pass");
		assertThat(ran.err()).isEmpty();
	}

	@Test
	void failsItWithATinyP95Limit() throws Exception {
		Ran ran = VerdictTest.verdict("PROMETHEUS_URL=" + url, "TESTID=verdict-pass", "MAX_P95_SECONDS=0.001");
		assertThat(ran.exit()).as(ran.toString()).isEqualTo(Verdict.FAIL);
		assertThat(ran.out()).contains("✗ the run's p95 is under 0.001 s").endsWith("verdict: fail (see the failed checks)");
	}

	@Test
	void countsARunWithoutRunnerLabelsAsOneRunnerAndItsDropsAsInconclusive() throws Exception {
		Ran ran = VerdictTest.verdict("PROMETHEUS_URL=" + url, "TESTID=verdict-dropped");
		assertThat(ran.exit()).as(ran.toString()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(ran.out()).startsWith("run verdict-dropped: 1 requests from 1 runner(s), 0 failed")
			.endsWith("verdict: inconclusive (1 iteration(s) dropped and the runners' CPU is unknown)");
	}

	@Test
	void anotherRunIsUnknown() throws Exception {
		Ran ran = VerdictTest.verdict("PROMETHEUS_URL=" + url, "TESTID=verdict-other");
		assertThat(ran.exit()).isEqualTo(Verdict.UNKNOWN_RUN);
		assertThat(ran.out()).isEmpty();
		assertThat(ran.err()).contains("holds no run verdict-other in the last 6h: no verdict");
	}

	@Test
	void isInconclusiveWhenARunnerPodUsedMostOfItsQuota() throws Exception {
		Ran ran = cpuVerdict();
		assertThat(ran.exit()).as(ran.toString()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(ran.out()).contains("generator: busiest runner at 90% of its CPU (2 runner pod(s) reporting), most"
				+ " throttled in 60% of its CPU periods, 0 iteration(s) dropped")
			.endsWith("verdict: inconclusive (a runner used 90% of its CPU, over 80%)");
		assertThat(cpuVerdict("RUNNER_CPU_LIMIT=1").out()).endsWith("(a runner used 135% of its CPU, over 80%)");
	}

	@Test
	void isInconclusiveWhenARunnerPodWasThrottledAndPassesWhenAllowed() throws Exception {
		Ran throttled = cpuVerdict("MAX_GENERATOR_CPU=0.95");
		assertThat(throttled.exit()).as(throttled.toString()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(throttled.out())
			.endsWith("verdict: inconclusive (a runner was throttled in 60% of its CPU periods, over 50%)");
		Ran allowed = cpuVerdict("MAX_GENERATOR_CPU=0.95", "MAX_THROTTLED_SHARE=0.7");
		assertThat(allowed.exit()).as(allowed.toString()).isEqualTo(Verdict.PASS);
	}

	private static Ran cpuVerdict(String... more) throws InterruptedException {
		List<String> arguments = new ArrayList<>(List.of("PROMETHEUS_URL=" + url, "TESTID=verdict-cpu", "NAMESPACE=load",
				"RUNNER_PODS=verdict-cpu-[0-9]+-.*", "CPU_WINDOW=5s"));
		arguments.addAll(List.of(more));
		return VerdictTest.verdict(arguments.toArray(String[]::new));
	}

	/**
	 * A pod's cgroup series as the kubelet's cAdvisor gives them, one sample a second for the last two minutes: its
	 * CPU at {@code cores}, a quota of 1.5 cores, 10 CFS periods a second of which {@code throttled} throttled; and
	 * its runner container's own series (container="k6"), which the verdict leaves out.
	 */
	private static void writeCadvisor(long now, String pod, double cores, int throttled) throws Exception {
		ByteArrayOutputStream request = new ByteArrayOutputStream();
		CodedOutputStream out = CodedOutputStream.newInstance(request);
		Map<String, DoubleUnaryOperator> series = Map.of("container_cpu_usage_seconds_total", (s) -> cores * s,
				"container_cpu_cfs_periods_total", (s) -> 10 * s, "container_cpu_cfs_throttled_periods_total",
				(s) -> throttled * s, "container_spec_cpu_quota", (s) -> 150_000, "container_spec_cpu_period",
				(s) -> 100_000);
		for (String container : new String[] { "", "k6" }) {
			series.forEach((name, value) -> {
				Map<String, String> labels = new TreeMap<>(Map.of("__name__", name, "namespace", "load", "pod", pod,
						"job", "kubelet"));
				if (!container.isEmpty()) {
					labels.put("container", container);
				}
				write(out, 1, message((ts) -> {
					labels.forEach((k, v) -> write(ts, 1, message((l) -> {
						l.writeString(1, k);
						l.writeString(2, v);
					})));
					for (int s = 0; s <= 120; s++) {
						double v = container.isEmpty() ? value.applyAsDouble(s) : 10 * value.applyAsDouble(s);
						long t = now - (120 - s) * 1000L;
						write(ts, 2, message((sample) -> {
							sample.writeDouble(1, v);
							sample.writeInt64(2, t);
						}));
					}
				}));
			});
		}
		out.flush();
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/write"))
				.header("Content-Encoding", "snappy")
				.header("Content-Type", "application/x-protobuf")
				.header("X-Prometheus-Remote-Write-Version", "0.1.0")
				.POST(HttpRequest.BodyPublishers.ofByteArray(Snappy.compress(request.toByteArray())))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
	}

	private interface Fields {

		void write(CodedOutputStream out) throws IOException;

	}

	private static byte[] message(Fields fields) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		CodedOutputStream out = CodedOutputStream.newInstance(bytes);
		try {
			fields.write(out);
			out.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return bytes.toByteArray();
	}

	private static void write(CodedOutputStream out, int field, byte[] message) {
		try {
			out.writeByteArray(field, message);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String log() throws IOException {
		Path log = dir.resolve("prometheus.log");
		return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
	}

}
