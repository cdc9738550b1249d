package dev.perflab.load;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code report}: runners' JTLs merged into one, and JMeter's own HTML dashboard of all of them, its statistics over
 * every sample (JMeter's default window holds the last 20,000 only).
 */
class ReportTest {

	private static final String HEADER = "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,"
			+ "success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect,"
			+ "\"perflab_us\",\"perflab_phase\"";

	@TempDir
	Path dir;

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final ByteArrayOutputStream err = new ByteArrayOutputStream();

	@Test
	void mergesEveryRunnersSamplesIntoOneDashboardOverAllOfThem() throws Exception {
		// more samples than JMeter's default statistics window, the slow ones in the first runner's file only
		Path a = jtl("a.jtl", 0, 16_000, 900);
		Path b = jtl("b.jtl", 1, 14_000, 10);
		// as a user runs it, in a JVM of its own: JMeter reads the statistics window once per JVM (a static), so a
		// report made earlier in a shared JVM would leave its window to this one
		Process report = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), LoadRunner.class.getName(), "report",
				this.dir.resolve("out").toString(), a.toString(), b.toString())
			.redirectErrorStream(true)
			.start();
		String printed = new String(report.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(report.waitFor()).as(printed).isZero();
		JsonNode total = new ObjectMapper().readTree(this.dir.resolve("out/html/statistics.json").toFile()).path("Total");
		assertThat(total.path("sampleCount").asLong()).isEqualTo(30_000);
		assertThat(total.path("errorCount").asLong()).isZero();
		// 16,000 of 30,000 samples at 900 ms: the median of all of them is 900 ms (JMeter's default window, the last
		// 20,000 samples, 6,000 slow and b's 14,000 fast, would put it at 10 ms)
		assertThat(total.path("medianResTime").asDouble()).isEqualTo(900);
		assertThat(Files.readAllLines(this.dir.resolve("out/samples.jtl"))).hasSize(30_001).first().isEqualTo(HEADER);
		assertThat(this.dir.resolve("out/html/index.html")).exists();
		assertThat(printed).contains("30000 samples from 2 source(s)");
	}

	@Test
	void refusesSourcesWhoseColumnsDiffer() throws Exception {
		Path a = jtl("a.jtl", 0, 10, 5);
		Path other = this.dir.resolve("other.jtl");
		Files.writeString(other, "timeStamp,elapsed,label\n1,2,x\n");
		assertThat(report(this.dir.resolve("out").toString(), a.toString(), other.toString())).isEqualTo(Report.FAILED);
		assertThat(this.err.toString(StandardCharsets.UTF_8)).contains(other + ": its columns differ");
	}

	@Test
	void aRunnerThatCannotBeReachedFailsTheReportNamingIt() throws Exception {
		assertThat(report(this.dir.resolve("out").toString(), "127.0.0.1:1")).isEqualTo(Report.FAILED);
		assertThat(this.err.toString(StandardCharsets.UTF_8)).startsWith("report: 127.0.0.1:1: ");
	}

	private int report(String... words) throws IOException, InterruptedException {
		return new Report(new PrintStream(this.out, true, StandardCharsets.UTF_8),
				new PrintStream(this.err, true, StandardCharsets.UTF_8))
			.report(List.of(words));
	}

	/** A runner's JTL: n samples of a 200 read, one a millisecond apart from its start, each `elapsed` ms long. */
	private Path jtl(String name, int runner, int n, int elapsed) throws IOException {
		List<String> lines = new ArrayList<>();
		lines.add(HEADER);
		long start = 1_795_934_846_000L;
		for (int i = 0; i < n; i++) {
			lines.add((start + i) + "," + elapsed + ",read,200,OK,main " + runner + "-1,text,true,,504,0,1,1,"
					+ "http://127.0.0.1:8080/s/x," + elapsed + ",0,0," + (elapsed * 1000L) + ",main");
		}
		Path file = this.dir.resolve(name);
		Files.write(file, lines);
		return file;
	}

}
