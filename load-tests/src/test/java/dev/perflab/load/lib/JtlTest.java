package dev.perflab.load.lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.jmeter.report.dashboard.ReportGenerator;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.util.JMeterUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The run's samples as a JTL (JTL=path): JMeter's CSV with its header, a line a counted request with the runner's own
 * duration in microseconds and the phase, and a file JMeter's report generator makes its HTML dashboard of.
 */
class JtlTest {

	@TempDir
	Path dir;

	@Test
	void writesEveryRequestWithItsMicrosecondsAndPhaseForJmetersReport() throws Exception {
		Path jtl = this.dir.resolve("samples/run.jtl");
		try (LocalServer server = new LocalServer(2)) {
			Map<String, String> env = Map.of("BASE_URL", server.url(), "TOKEN", "t0", "SUMMARY_DIR", this.dir.toString(),
					"TESTID", "jtl-test", "LATE_AFTER", "60s", "JTL", jtl.toString());
			int status = Runner.run(new ProbeScenario(20, 10),
					Settings.of(env, List.of("RATE=20", "DURATION=1s", "WARMUP=500ms")));
			assertThat(status).isEqualTo(Runner.PASSED);
		}
		List<String> lines = Files.readAllLines(jtl);
		List<String> header = List.of(CSVSaveService.csvSplitString(lines.get(0), ','));
		assertThat(header).startsWith("timeStamp", "elapsed", "label", "responseCode")
			.contains("threadName", "success")
			.endsWith("perflab_us", "perflab_phase");
		// sample variables are quoted in the header: how JMeter tells them from its own columns
		assertThat(lines.get(0)).endsWith(",\"perflab_us\",\"perflab_phase\"");
		List<String[]> samples = new ArrayList<>();
		for (String line : lines.subList(1, lines.size())) {
			String[] sample = CSVSaveService.csvSplitString(line, ',');
			assertThat(sample).hasSameSizeAs(header.toArray());
			samples.add(sample);
		}
		JsonNode metrics = new ObjectMapper().readTree(Files.readString(this.dir.resolve("probe-summary.json")))
			.path("metrics");
		// one line a request the summary counts: 25 iterations of two, 5 of them in the warm-up
		assertThat(samples).hasSize(50).hasSize(metrics.path("http_reqs").path("values").path("count").asInt());
		int label = header.indexOf("label");
		int phase = header.indexOf("perflab_phase");
		int micros = header.indexOf("perflab_us");
		int elapsed = header.indexOf("elapsed");
		assertThat(samples.stream().filter((s) -> s[phase].equals("warmup")).count()).isEqualTo(10);
		assertThat(samples.stream().filter((s) -> s[label].equals("create")).count()).isEqualTo(25);
		assertThat(samples.stream().filter((s) -> s[label].equals("missing")).map((s) -> s[header.indexOf("responseCode")]))
			.containsOnly("404");
		double sum = 0;
		long max = 0;
		for (String[] sample : samples) {
			long us = Long.parseLong(sample[micros]);
			// JMeter's whole milliseconds are within the runner's own time, give or take the last one
			assertThat(us).isGreaterThanOrEqualTo(Long.parseLong(sample[elapsed]) * 1000 - 1000);
			assertThat(Long.parseLong(sample[header.indexOf("timeStamp")])).isPositive();
			assertThat(sample[header.indexOf("success")]).isIn("true");
			sum += us;
			max = Math.max(max, us);
		}
		// the same durations as the summary's, in its milliseconds
		JsonNode duration = metrics.path("http_req_duration").path("values");
		assertThat(max / 1000.0).isCloseTo(duration.path("max").asDouble(), within(0.001));
		assertThat(sum / samples.size() / 1000.0).isCloseTo(duration.path("avg").asDouble(), within(0.001));

		Path report = this.dir.resolve("report");
		JMeterUtils.setProperty("jmeter.reportgenerator.outputdir", report.toString());
		new ReportGenerator(jtl.toString(), null).generate();
		assertThat(report.resolve("index.html")).exists();
		JsonNode statistics = new ObjectMapper().readTree(Files.readString(report.resolve("statistics.json")));
		assertThat(statistics.path("Total").path("sampleCount").asInt()).isEqualTo(50);
		assertThat(statistics.path("create").path("sampleCount").asInt()).isEqualTo(25);
	}

	@Test
	void refusesAJtlItCannotWrite() throws IOException {
		Path file = Files.writeString(this.dir.resolve("a-file"), "");
		Settings settings = Settings.of(Map.of("JTL", file.resolve("run.jtl").toString()), List.of());
		assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Runner.run(new ProbeScenario(1, 1), settings)))
			.isInstanceOf(BadInput.class)
			.hasMessageStartingWith("JTL=" + file.resolve("run.jtl") + ": cannot write it");
	}

}
