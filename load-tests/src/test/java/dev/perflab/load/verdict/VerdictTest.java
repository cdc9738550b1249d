package dev.perflab.load.verdict;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.Test;

import dev.perflab.load.verdict.Verdict.Generator;
import dev.perflab.load.verdict.Verdict.Outcome;
import dev.perflab.load.verdict.Verdict.Totals;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The verdict's rules over values (the generator judged before the system), its refusals of bad input before
 * anything is asked, and its answers when Prometheus has no such run or cannot be asked.
 */
class VerdictTest {

	private static final VerdictSettings LIMITS = settings("TESTID=r7");

	private static final Totals HEALTHY = new Totals(1000.0, 5, 0, 0.12, 0.3, 1000.0, 2.0);

	@Test
	void passesAHealthyRunAndSaysWhatItSaw() {
		Outcome outcome = Verdict.judge(LIMITS, HEALTHY, Generator.NOT_ASKED);
		assertThat(outcome.exit()).isEqualTo(Verdict.PASS);
		assertThat(outcome.lines()).containsExactly(
				"run r7: 1000 requests from 2 runner(s), 5 failed, p95 0.12 s and p99 0.3 s of all 1000 request"
						+ " durations (native histograms summed over runners)",
				"generator: runners' CPU not asked (no RUNNER_PODS), 0 iteration(s) dropped",
				"✓ the run sent requests that Prometheus received", "✓ every request has its duration in the histograms",
				"✓ at most 1% of all runners' requests failed", "✓ the run's p95 is under 0.5 s",
				"✓ no iteration dropped while the generator kept up (the system was late)", "verdict: pass");
	}

	@Test
	void failsOnTheFailedShareOfAllRunnersRequests() {
		Outcome outcome = Verdict.judge(LIMITS, new Totals(1000.0, 11, 0, 0.12, 0.3, 1000.0, 2.0),
				Generator.NOT_ASKED);
		assertThat(outcome.exit()).isEqualTo(Verdict.FAIL);
		assertThat(outcome.lines()).contains("✗ at most 1% of all runners' requests failed", "✓ the run's p95 is under 0.5 s")
			.last()
			.isEqualTo("verdict: fail (see the failed checks)");
	}

	@Test
	void failsOnTheP95() {
		Outcome outcome = Verdict.judge(settings("TESTID=r7", "MAX_P95_SECONDS=0.1"), HEALTHY, Generator.NOT_ASKED);
		assertThat(outcome.exit()).isEqualTo(Verdict.FAIL);
		assertThat(outcome.lines()).contains("✗ the run's p95 is under 0.1 s");
	}

	@Test
	void failsARunWhoseP95IsUnknownOrWhoseRequestsMissTheirDurations() {
		assertThat(Verdict.judge(LIMITS, new Totals(1000.0, 0, 0, null, null, null, 1.0), Generator.NOT_ASKED).lines())
			.contains("✗ every request has its duration in the histograms", "✗ the run's p95 is under 0.5 s");
		assertThat(Verdict.judge(LIMITS, new Totals(0.0, 0, 0, Double.NaN, Double.NaN, 0.0, 1.0), Generator.NOT_ASKED)
			.exit()).isEqualTo(Verdict.FAIL);
	}

	@Test
	void failsOnDropsWhenTheGeneratorKeptUp() {
		Outcome outcome = Verdict.judge(LIMITS, new Totals(1000.0, 0, 3, 0.12, 0.3, 1000.0, 2.0),
				new Generator(0.4, 2, 0.01));
		assertThat(outcome.exit()).isEqualTo(Verdict.FAIL);
		assertThat(outcome.lines()).contains(
				"generator: busiest runner at 40% of its CPU (2 runner pod(s) reporting), most throttled in 1% of its"
						+ " CPU periods, 3 iteration(s) dropped",
				"✗ no iteration dropped while the generator kept up (the system was late)")
			.last()
			.isEqualTo("verdict: fail (3 iteration(s) dropped with a healthy generator; see the failed checks)");
	}

	@Test
	void isInconclusiveWhenARunnerWasShortOfCpu() {
		Outcome outcome = Verdict.judge(LIMITS, HEALTHY, new Generator(0.93, 2, null));
		assertThat(outcome.exit()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(outcome.lines()).noneMatch((line) -> line.startsWith("✓") || line.startsWith("✗"))
			.last()
			.isEqualTo("verdict: inconclusive (a runner used 93% of its CPU, over 80%)");
	}

	@Test
	void isInconclusiveWhenARunnerWasThrottled() {
		Outcome outcome = Verdict.judge(settings("TESTID=r7", "MAX_THROTTLED_SHARE=0.25"), HEALTHY,
				new Generator(0.5, 2, 0.3));
		assertThat(outcome.exit()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(outcome.lines()).last()
			.isEqualTo("verdict: inconclusive (a runner was throttled in 30% of its CPU periods, over 25%)");
	}

	@Test
	void isInconclusiveOnDropsWhileTheRunnersCpuIsUnknown() {
		Totals dropped = new Totals(1000.0, 0, 4, 0.12, 0.3, 1000.0, 1.0);
		Outcome notAsked = Verdict.judge(LIMITS, dropped, Generator.NOT_ASKED);
		assertThat(notAsked.exit()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(notAsked.lines()).last()
			.isEqualTo("verdict: inconclusive (4 iteration(s) dropped and the runners' CPU is unknown)");
		Outcome unknown = Verdict.judge(settings("TESTID=r7", "NAMESPACE=load", "RUNNER_PODS=r7-.*"), dropped,
				Generator.NOT_ASKED);
		assertThat(unknown.exit()).isEqualTo(Verdict.INCONCLUSIVE);
		assertThat(unknown.lines()).contains("generator: runners' CPU unknown (no cAdvisor series for pods r7-.* in"
				+ " load, or no CPU limit), 4 iteration(s) dropped");
	}

	@Test
	void asksTheRunnerPodsCpuAgainstTheirLimitOrTheirQuota() {
		VerdictSettings limited = settings("TESTID=r7", "NAMESPACE=load", "RUNNER_PODS=r7-smoke-[0-9]+-.*",
				"RUNNER_CPU_LIMIT=1.5", "CPU_WINDOW=30s");
		assertThat(Verdict.range(1000.2, 1060.0, limited)).isEqualTo(60 + 30);
		assertThat(Verdict.cpuPeakQuery(limited, 90)).isEqualTo("max(max_over_time((max by (namespace, pod)"
				+ " (rate(container_cpu_usage_seconds_total{namespace=\"load\",pod=~\"r7-smoke-[0-9]+-.*\",container=\"\"}"
				+ "[30s])) / 1.5)[90s:5s]))");
		VerdictSettings quota = settings("TESTID=r7", "NAMESPACE=load", "RUNNER_PODS=r7-\\d+\"");
		assertThat(Verdict.range(1000, 1000, quota)).isEqualTo(60);
		assertThat(Verdict.cpuPeakQuery(quota, 60)).contains("pod=~\"r7-\\\\d+\\\"\"")
			.contains("on (namespace, pod) max by (namespace, pod) (container_spec_cpu_quota{");
		assertThat(Verdict.throttledQuery(quota, 60))
			.startsWith("max(max by (namespace, pod) (increase(container_cpu_cfs_throttled_periods_total{")
			.endsWith("[60s])) > 0))");
		assertThat(Verdict.reportingQuery(quota, 60))
			.startsWith("count(max by (pod) (max_over_time(container_cpu_usage_seconds_total{");
	}

	@Test
	void readsEachKeyFromTheEnvironmentAndLetsAnArgumentWin() {
		VerdictSettings s = VerdictSettings.of(
				Map.of("TESTID", "from-env", "MAX_P95_SECONDS", "0.25", "PROMETHEUS_URL", "http://prom:9090/", "PATH", "/bin"),
				List.of("MAX_P95_SECONDS=0.75"));
		assertThat(s.testid()).isEqualTo("from-env");
		assertThat(s.maxP95Seconds()).isEqualTo(0.75);
		assertThat(s.prometheusUrl()).isEqualTo("http://prom:9090");
		assertThat(s.maxFailedShare()).isEqualTo(0.01);
		assertThat(s.window()).isEqualTo("6h");
		assertThat(s.cpuWindowSeconds()).isEqualTo(60);
	}

	@Test
	void refusesBadInputWithOneLineAndAsksNothing() throws Exception {
		try (FakePrometheus prometheus = new FakePrometheus(200, "{}")) {
			String url = "PROMETHEUS_URL=" + prometheus.url();
			assertThat(refused(url, "TESTID=R7")).isEqualTo(
					"load-tests: TESTID=R7: the run's id is required, lowercase letters, digits and dashes only");
			assertThat(refused(url)).startsWith("load-tests: TESTID=: ");
			assertThat(refused(url, "TESTID=r7", "MAX_P95_SECONDS=fast"))
				.isEqualTo("load-tests: MAX_P95_SECONDS=fast: not a number (0 or more)");
			assertThat(refused(url, "TESTID=r7", "MAX_FAILED_SHARE=-0.1"))
				.isEqualTo("load-tests: MAX_FAILED_SHARE=-0.1: not a number (0 or more)");
			assertThat(refused(url, "TESTID=r7", "CPU_WINDOW=90"))
				.isEqualTo("load-tests: CPU_WINDOW=90: must be like 30s or 1m");
			assertThat(refused(url, "TESTID=r7", "WINDOW=six hours"))
				.isEqualTo("load-tests: WINDOW=six hours: not a Prometheus duration (like 6h or 1d)");
			assertThat(refused("PROMETHEUS_URL=prom:9090", "TESTID=r7"))
				.isEqualTo("load-tests: PROMETHEUS_URL=prom:9090: not an http(s) URL like http://127.0.0.1:9090");
			assertThat(refused(url, "TESTID=r7", "MAX_P95=0.3")).startsWith("load-tests: MAX_P95=0.3: not a verdict setting");
			assertThat(prometheus.asked.get()).isZero();
		}
	}

	@Test
	void aRunPrometheusNeverSawIsNoVerdict() throws Exception {
		try (FakePrometheus prometheus = new FakePrometheus(200,
				"{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}")) {
			Ran ran = verdict("PROMETHEUS_URL=" + prometheus.url(), "TESTID=r7", "WINDOW=1d");
			assertThat(ran.exit).isEqualTo(Verdict.UNKNOWN_RUN);
			assertThat(ran.out).isEmpty();
			assertThat(ran.err).isEqualTo("load-tests: verdict: Prometheus at " + prometheus.url()
					+ " holds no run r7 in the last 1d: no verdict");
			assertThat(prometheus.asked.get()).isEqualTo(1);
		}
	}

	@Test
	void aPrometheusThatAnswersAnErrorCouldNotBeAsked() throws Exception {
		try (FakePrometheus prometheus = new FakePrometheus(503, "{\"status\":\"error\",\"error\":\"shutting down\"}")) {
			Ran ran = verdict("PROMETHEUS_URL=" + prometheus.url(), "TESTID=r7");
			assertThat(ran.exit).isEqualTo(Verdict.FAILED_ASKING);
			assertThat(ran.err).isEqualTo("load-tests: verdict: Prometheus at " + prometheus.url()
					+ " answered 503 to perflab_load_http_reqs_total{testid=\"r7\"}[6h]: shutting down");
		}
	}

	@Test
	void anUnreachablePrometheusCouldNotBeAsked() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			port = socket.getLocalPort();
		}
		Ran ran = verdict("PROMETHEUS_URL=http://127.0.0.1:" + port, "TESTID=r7");
		assertThat(ran.exit).isEqualTo(Verdict.FAILED_ASKING);
		assertThat(ran.err).isEqualTo("load-tests: verdict: Prometheus at http://127.0.0.1:" + port
				+ " could not be asked: no connection (refused, or nothing listening there)");
	}

	@Test
	void writesValuesAsShortAsTheyRead() {
		assertThat(Verdict.number(1200.0)).isEqualTo("1200");
		assertThat(Verdict.number(0.0031)).isEqualTo("0.0031");
		assertThat(Verdict.number(0.0)).isEqualTo("0");
		assertThat(Verdict.number(null)).isEqualTo("unknown");
		assertThat(Prometheus.number("+Inf")).isInfinite();
		assertThat(Prometheus.seconds(1717000000.123)).isEqualTo("1717000000.123");
	}

	private static VerdictSettings settings(String... arguments) {
		return VerdictSettings.of(Map.of(), List.of(arguments));
	}

	private static String refused(String... arguments) throws Exception {
		Ran ran = verdict(arguments);
		assertThat(ran.exit).isEqualTo(Verdict.BAD_INPUT);
		assertThat(ran.out).isEmpty();
		return ran.err;
	}

	static Ran verdict(String... arguments) throws InterruptedException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int exit = Verdict.run(Map.of(), List.of(arguments), new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Ran(exit, out.toString(StandardCharsets.UTF_8).trim(), err.toString(StandardCharsets.UTF_8).trim());
	}

	record Ran(int exit, String out, String err) {
	}

	/** Answers every request with one status and body, and counts them. */
	private static final class FakePrometheus implements AutoCloseable {

		private final HttpServer server;

		final AtomicInteger asked = new AtomicInteger();

		FakePrometheus(int status, String body) throws IOException {
			this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
			this.server.createContext("/", (exchange) -> {
				this.asked.incrementAndGet();
				byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				exchange.sendResponseHeaders(status, bytes.length);
				try (OutputStream out = exchange.getResponseBody()) {
					out.write(bytes);
				}
			});
			this.server.start();
		}

		String url() {
			return "http://127.0.0.1:" + this.server.getAddress().getPort();
		}

		@Override
		public void close() {
			this.server.stop(0);
		}

	}

}
