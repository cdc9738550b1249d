package dev.perflab.load;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.jmeter.JMeter;
import org.apache.jmeter.report.dashboard.ReportGenerator;
import org.apache.jmeter.util.JMeterUtils;
import us.abstracta.jmeter.javadsl.core.engines.JmeterEnvironment;

import dev.perflab.load.lib.BadInput;

/**
 * {@code report DIR SOURCE...}: one report of a run from all its runners' samples together. Each SOURCE is a JTL
 * file (a runner's JTL) or a runner's control address (host:port) whose samples are kept (KEEP_SAMPLES): its
 * {@code GET /v1/samples} is read, then {@code POST /v1/release} lets the runner go. The samples are merged into
 * DIR/samples.jtl (one header; every source must have the same columns) and JMeter's own report generator makes its
 * HTML dashboard of them in DIR/html, its statistics over the whole run (JMeter's default takes percentiles over the
 * last 20,000 samples only) and its graphs at a granularity that gives a short run more than one point. Exit 0 with
 * the report written, 1 with a one-line reason otherwise (2 for words it refuses).
 */
final class Report {

	static final int FAILED = 1;

	private static final String SAMPLE_VARIABLES = "perflab_us,perflab_phase";

	private final HttpClient http = HttpClient.newBuilder()
		.connectTimeout(Duration.ofSeconds(5))
		.version(HttpClient.Version.HTTP_1_1)
		.build();

	private final PrintStream out;

	private final PrintStream err;

	Report(PrintStream out, PrintStream err) {
		this.out = out;
		this.err = err;
	}

	int report(List<String> words) throws IOException, InterruptedException {
		if (words.size() < 2) {
			throw new BadInput("usage: load-tests report DIR SOURCE... (a JTL file, or a runner's host:port)");
		}
		Path dir = Path.of(words.get(0));
		Path html = dir.resolve("html");
		if (Files.isDirectory(html)) {
			try (var entries = Files.list(html)) {
				if (entries.findAny().isPresent()) {
					throw new BadInput(html + ": not empty (a report of another run?)");
				}
			}
		}
		Files.createDirectories(dir);
		Path merged = dir.resolve("samples.jtl");
		String header = null;
		long samples = 0;
		long first = Long.MAX_VALUE;
		long last = 0;
		List<String> sources = words.subList(1, words.size());
		try (BufferedWriter writer = Files.newBufferedWriter(merged, StandardCharsets.UTF_8)) {
			for (String source : sources) {
				try (BufferedReader reader = open(source)) {
					String line = reader.readLine();
					if (line == null) {
						return failed(source + ": no samples (not even a header)");
					}
					if (header == null) {
						header = line;
						writer.write(line);
						writer.newLine();
					}
					else if (!header.equals(line)) {
						return failed(source + ": its columns differ from " + sources.get(0) + "'s");
					}
					while ((line = reader.readLine()) != null) {
						if (line.isEmpty()) {
							continue;
						}
						int comma = line.indexOf(',');
						long stamp = Long.parseLong(comma > 0 ? line.substring(0, comma) : line);
						first = Math.min(first, stamp);
						last = Math.max(last, stamp);
						writer.write(line);
						writer.newLine();
						samples++;
					}
				}
				catch (IOException | NumberFormatException ex) {
					return failed(source + ": " + ex.getMessage());
				}
			}
		}
		for (String source : sources) {
			if (!Files.isRegularFile(Path.of(source))) {
				release(source);
			}
		}
		if (samples == 0) {
			return failed("no sample in " + String.join(", ", sources) + ": nothing to report");
		}
		generate(merged, html, samples, last - first);
		this.out.println("report: " + html.resolve("index.html") + " (" + samples + " samples from " + sources.size()
				+ " source(s), statistics over all of them)");
		return 0;
	}

	private BufferedReader open(String source) throws IOException, InterruptedException {
		Path file = Path.of(source);
		if (Files.isRegularFile(file)) {
			return Files.newBufferedReader(file, StandardCharsets.UTF_8);
		}
		HttpResponse<InputStream> answer = this.http.send(
				HttpRequest.newBuilder(uri(source, "/v1/samples")).timeout(Duration.ofMinutes(5)).GET().build(),
				HttpResponse.BodyHandlers.ofInputStream());
		if (answer.statusCode() != 200) {
			String body = new String(answer.body().readAllBytes(), StandardCharsets.UTF_8);
			throw new IOException("GET /v1/samples answered " + answer.statusCode() + " " + body.strip());
		}
		return new BufferedReader(new java.io.InputStreamReader(answer.body(), StandardCharsets.UTF_8));
	}

	private void release(String address) throws IOException, InterruptedException {
		HttpResponse<Void> answer = this.http.send(HttpRequest.newBuilder(uri(address, "/v1/release"))
			.timeout(Duration.ofSeconds(5))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.discarding());
		if (answer.statusCode() != 200) {
			this.err.println("report: " + address + " answered " + answer.statusCode() + " to POST /v1/release");
		}
	}

	private static URI uri(String address, String path) {
		String base = address.startsWith("http://") ? address : "http://" + address;
		try {
			return URI.create(base.replaceAll("/+$", "") + path);
		}
		catch (IllegalArgumentException ex) {
			throw new BadInput(address + ": neither a JTL file nor a runner's host:port");
		}
	}

	/** JMeter's HTML dashboard of the merged samples. */
	private static void generate(Path jtl, Path html, long samples, long spanMillis) throws IOException {
		new JmeterEnvironment();
		JMeterUtils.setProperty("sample_variables", SAMPLE_VARIABLES);
		JMeterUtils.setProperty(JMeter.JMETER_REPORT_OUTPUT_DIR_PROPERTY, html.toAbsolutePath().toString());
		// percentiles of every sample, not of the last 20,000
		JMeterUtils.setProperty("jmeter.reportgenerator.statistic_window", Long.toString(Math.max(20_000, samples + 1)));
		// about a hundred points over the run, at least a second apart
		long granularity = Math.max(1000, (spanMillis / 100) / 1000 * 1000);
		JMeterUtils.setProperty("jmeter.reportgenerator.overall_granularity", Long.toString(granularity));
		JMeterUtils.setProperty("jmeter.reportgenerator.report_title", "perflab load run");
		// JMeter reads the window once per JVM (PercentileAggregator's static): a report made before in this JVM fixed it
		int window = statisticsWindow();
		if (window < samples) {
			throw new IOException("JMeter's statistics window is " + window + " samples in this JVM (a report made "
					+ "before fixed it), fewer than the " + samples + " of this run: run `load-tests report` on its own");
		}
		try {
			new ReportGenerator(jtl.toAbsolutePath().toString(), null).generate();
		}
		catch (Exception ex) {
			throw new IOException("JMeter's report generator: " + ex.getMessage(), ex);
		}
	}

	private static int statisticsWindow() throws IOException {
		try {
			java.lang.reflect.Field field = Class.forName("org.apache.jmeter.report.processor.PercentileAggregator")
				.getDeclaredField("SLIDING_WINDOW_SIZE");
			field.setAccessible(true);
			return field.getInt(null);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			throw new IOException("JMeter's statistics window cannot be read: " + ex, ex);
		}
	}

	private int failed(String why) {
		this.err.println("report: " + why);
		return FAILED;
	}

}
