package dev.perflab.load;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command line refuses bad input with one line naming the key and the value, exit 2, before anything starts.
 */
class LoadRunnerTest {

	@Test
	void listsTheScenariosByTheirK6Names() throws Exception {
		assertThat(Scenarios.names()).contains("mail-smoke", "mail-send-smoke", "mail-send", "mail-load", "notifier-smoke",
				"notifier-signup", "notifier-seed001", "route-smoke", "route-readers", "shortener-reads", "shortener-hop",
				"shortener-smoke", "office-day");
		assertThat(LoadRunner.run(new String[] { "list" })).isZero();
	}

	@Test
	void refusesAnUnknownProfile() throws Exception {
		assertThat(refused("run", "shortener-smoke", "PROFILE=ramp"))
			.isEqualTo("load-tests: PROFILE=ramp: one of smoke, average, stress, spike, soak");
	}

	@Test
	void refusesARateThatIsNoNumber() throws Exception {
		assertThat(refused("run", "shortener-smoke", "RATE=fast"))
			.isEqualTo("load-tests: RATE=fast: not a positive number");
	}

	@Test
	void refusesAMalformedDuration() throws Exception {
		assertThat(refused("run", "route-smoke", "DURATION=10 minutes"))
			.startsWith("load-tests: DURATION=10 minutes: not a duration");
	}

	@Test
	void refusesAnUnknownScenario() throws Exception {
		assertThat(refused("run", "shortener-soak"))
			.startsWith("load-tests: scenario shortener-soak: unknown, one of mail-load, mail-send,");
	}

	@Test
	void refusesAZeroCap() throws Exception {
		assertThat(refused("run", "shortener-smoke", "MAX_IN_FLIGHT=0"))
			.isEqualTo("load-tests: MAX_IN_FLIGHT=0: not a positive whole number");
	}

	@Test
	void refusesALatenessBoundOfNothing() throws Exception {
		assertThat(refused("run", "shortener-smoke", "LATE_AFTER=0s")).isEqualTo("load-tests: LATE_AFTER=0: must be longer than 0");
	}

	@Test
	void refusesARunnerCountOfNone() throws Exception {
		assertThat(refused("run", "shortener-smoke", "RUNNERS=0"))
			.isEqualTo("load-tests: RUNNERS=0: not a positive whole number");
	}

	@Test
	void refusesARunnerIndexOutsideTheRunners() throws Exception {
		assertThat(refused("run", "shortener-smoke", "RUNNERS=3", "RUNNER_INDEX=3"))
			.isEqualTo("load-tests: RUNNER_INDEX=3: from 0 to 2 (RUNNERS=3)");
		assertThat(refused("run", "shortener-smoke", "RUNNER_INDEX=-1"))
			.isEqualTo("load-tests: RUNNER_INDEX=-1: from 0 to 0 (RUNNERS=1)");
	}

	@Test
	void refusesAPauseNobodyCouldEnd() throws Exception {
		assertThat(refused("run", "shortener-smoke", "PAUSED=true"))
			.isEqualTo("load-tests: PAUSED=true: needs CONTROL=host:port, where POST /v1/start starts the run");
		assertThat(refused("run", "shortener-smoke", "CONTROL=6565"))
			.startsWith("load-tests: CONTROL=6565: not host:port");
	}

	private static String refused(String... args) throws Exception {
		PrintStream err = System.err;
		ByteArrayOutputStream captured = new ByteArrayOutputStream();
		System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
		try {
			assertThat(LoadRunner.run(args)).isEqualTo(LoadRunner.BAD_INPUT);
		}
		finally {
			System.setErr(err);
		}
		return captured.toString(StandardCharsets.UTF_8).trim();
	}

}
