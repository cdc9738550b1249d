package dev.perflab.load.lib;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SLOs this module judges by ({@code slo/<service>.json}) are those the k6 scripts still running in the cluster
 * and the perflab chart's dashboards read ({@code k6-tests/<service>/slo.js}, JSON inside): one statement of each
 * limit, whichever file a change lands in first, until the k6 files go.
 */
class SloSameAsK6Test {

	private static final ObjectMapper JSON = new ObjectMapper();

	@ParameterizedTest
	@ValueSource(strings = { "shortener", "route", "mail", "notifier", "shared" })
	void theSloFileSaysWhatTheK6OneSays(String service) throws IOException {
		Path k6 = Path.of("..", "k6-tests", service.equals("shared") ? "lib" : service, "slo.js");
		assertThat(k6).as("the k6 SLO file of %s", service).exists();
		try (InputStream ours = getClass().getClassLoader().getResourceAsStream("slo/" + service + ".json")) {
			assertThat(ours).as("slo/%s.json", service).isNotNull();
			assertThat(JSON.readTree(ours)).as("slo/%s.json against %s", service, k6).isEqualTo(k6Object(k6));
		}
	}

	/** The object of {@code export default { JSON };}, under comment lines, as the chart reads it. */
	private static JsonNode k6Object(Path file) throws IOException {
		String text = Files.readAllLines(file)
			.stream()
			.filter((line) -> !line.strip().startsWith("//"))
			.collect(Collectors.joining("\n"))
			.strip();
		assertThat(text).startsWith("export default").endsWith(";");
		return JSON.readTree(text.substring("export default".length(), text.length() - 1));
	}

}
