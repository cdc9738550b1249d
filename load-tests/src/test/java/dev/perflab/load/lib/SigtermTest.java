package dev.perflab.load.lib;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM during a run (a Kubernetes pod deleted) in a runner JVM of its own: the run ends as a POST /v1/stop ends
 * it, its summary written and Prometheus' last push made, and the JVM exits 103.
 */
class SigtermTest {

	@TempDir
	Path dir;

	@Test
	@EnabledOnOs({ OS.LINUX, OS.MAC })
	void endsTheRunAsAStopDoesWithItsSummaryAndLastPush() throws Exception {
		AtomicInteger pushes = new AtomicInteger();
		HttpServer prometheus = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 10);
		prometheus.createContext("/api/v1/write", (exchange) -> {
			exchange.getRequestBody().readAllBytes();
			pushes.incrementAndGet();
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		prometheus.start();
		try (LocalServer server = new LocalServer(200)) {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
					ProbeMain.class.getName(), "RATE=10", "DURATION=60s", "WARMUP=0s")
				.redirectErrorStream(true)
				.redirectOutput(this.dir.resolve("runner.log").toFile());
			builder.environment()
				.putAll(Map.of("BASE_URL", server.url(), "TOKEN", "t0", "SUMMARY_DIR", this.dir.toString(), "TESTID",
						"sigterm-test", "LATE_AFTER", "60s", "PROMETHEUS_RW_URL",
						"http://127.0.0.1:" + prometheus.getAddress().getPort() + "/api/v1/write"));
			Process runner = builder.start();
			try {
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
				while (server.received.get() < 6 && runner.isAlive() && System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				assertThat(server.received.get()).as(log()).isGreaterThanOrEqualTo(6);
				// SIGTERM, as the kubelet sends it
				runner.destroy();
				assertThat(runner.waitFor(60, TimeUnit.SECONDS)).as(log()).isTrue();
				assertThat(runner.exitValue()).as(log()).isEqualTo(Runner.STOPPED);
			}
			finally {
				runner.destroyForcibly();
			}
			JsonNode summary = new ObjectMapper().readTree(Files.readString(this.dir.resolve("probe-summary.json")));
			assertThat(summary.path("perflab").path("stoppedBy").asText()).isEqualTo("SIGTERM");
			JsonNode m = summary.path("metrics");
			long iterations = m.path("iterations").path("values").path("count").asLong();
			assertThat(iterations).isPositive();
			assertThat(m.path("interrupted_iterations").path("values").path("count").asLong()).isZero();
			assertThat(m.path("http_reqs").path("values").path("count").asLong()).isEqualTo(2 * iterations)
				.isEqualTo(server.received.get());
			assertThat(m.path("http_req_failed{scenario:main}").path("thresholds").path("rate<0.01").path("ok").asBoolean())
				.isTrue();
			assertThat(pushes.get()).isPositive();
			assertThat(Files.readString(this.dir.resolve("runner.log"))).contains("stopped by SIGTERM");
		}
		finally {
			prometheus.stop(0);
		}
	}

	private String log() {
		try {
			return String.join("\n", Files.readAllLines(this.dir.resolve("runner.log")));
		}
		catch (java.io.IOException ex) {
			return ex.toString();
		}
	}

}
