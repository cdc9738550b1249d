package dev.perflab.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loadtest chart refuses a test whose scenario the runner does not have, from the list it ships
 * ({@code charts/perflab-loadtest/files/scenarios.txt}): that list is the runner's, one name a line, as {@code list}
 * prints it ({@code java -jar load-tests/target/load-tests.jar list > charts/perflab-loadtest/files/scenarios.txt}).
 */
class ScenariosListedForTheChartTest {

	@Test
	void theChartListsEveryScenarioOfTheRunnerAndNoOther() throws IOException {
		Path listed = Path.of("..", "charts", "perflab-loadtest", "files", "scenarios.txt");
		assertThat(Files.readAllLines(listed)).as("%s (regenerate it with `load-tests list`)", listed)
			.isEqualTo(Scenarios.names());
	}

}
