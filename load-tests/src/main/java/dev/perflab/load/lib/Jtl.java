package dev.perflab.load.lib;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;

/**
 * Every sample the run counts as JMeter's CSV JTL (JTL=path), what k6's {@code --out csv} gave: the header line and one
 * line a request in JMeter's own format (its CSVSaveService, JMeter's default columns), so {@code jmeter -g} makes its
 * HTML report of it, plus two sample variables in the last columns: {@code perflab_us}, the request's duration in
 * microseconds on the runner's nanosecond clock (JMeter's {@code elapsed} is whole milliseconds), and
 * {@code perflab_phase} (warmup, main). Interrupted requests, which the summary does not count, are not written.
 */
final class Jtl implements AutoCloseable {

	/** The sample variable with the request's duration in microseconds. */
	static final String MICROS = "perflab_us";

	/** The sample variable with the iteration's phase. */
	static final String PHASE = "perflab_phase";

	/** The value of JMeter's {@code sample_variables} property that puts both in every sample. */
	static final String VARIABLES = MICROS + "," + PHASE;

	private final Path path;

	private final BufferedWriter out;

	private SampleSaveConfiguration config;

	private Jtl(Path path, BufferedWriter out) {
		this.path = path;
		this.out = out;
	}

	/** The file JTL names, written anew, or null without JTL. */
	static Jtl open(Settings settings) {
		Path path = settings.jtl().orElse(null);
		if (path == null) {
			return null;
		}
		try {
			Path dir = path.toAbsolutePath().getParent();
			if (dir != null) {
				Files.createDirectories(dir);
			}
			return new Jtl(path, Files.newBufferedWriter(path, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new BadInput("JTL=" + path + ": cannot write it (" + ex + ")");
		}
	}

	/** Writes one sample, the header before the first. */
	synchronized void write(SampleEvent event) {
		try {
			header();
			event.getResult().setSaveConfig(this.config);
			this.out.write(CSVSaveService.resultToDelimitedString(event));
			this.out.newLine();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("JTL " + this.path, ex);
		}
	}

	/** After the engine ran: a run without samples leaves the header alone. */
	synchronized void ended() throws IOException {
		header();
		this.out.flush();
	}

	/** The header as JMeter's save configuration has it once the engine read its properties. */
	private void header() throws IOException {
		if (this.config == null) {
			this.config = SampleSaveConfiguration.staticConfig();
			this.out.write(CSVSaveService.printableFieldNamesToString(this.config));
			this.out.newLine();
		}
	}

	@Override
	public synchronized void close() throws IOException {
		this.out.close();
	}

}
