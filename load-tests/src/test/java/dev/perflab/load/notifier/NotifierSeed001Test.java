package dev.perflab.load.notifier;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Segment;
import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Seed 001's profile as k6's ramping-arrival-rate ran it: RATE for a stage, a one-second step to PEAK, PEAK for the
 * rest of the second stage.
 */
class NotifierSeed001Test {

	@Test
	void holdsTheRateThenStepsToThePeakInASecond() {
		Load.Arrivals load = (Load.Arrivals) new NotifierSeed001()
			.load(Settings.of(Map.of(), List.of("RATE=5", "PEAK=10", "STAGE=20s")));
		assertThat(load.segments()).containsExactly(new Segment(5, 5, Duration.ofSeconds(20)),
				new Segment(5, 10, Duration.ofSeconds(1)), new Segment(10, 10, Duration.ofSeconds(19)));
		assertThat(load.maxInFlight()).isEqualTo(200);
	}

	@Test
	void isTheSeedsTwoMinutesByDefault() {
		Load.Arrivals load = (Load.Arrivals) new NotifierSeed001().load(Settings.of(Map.of(), List.of()));
		assertThat(load.segments()).containsExactly(new Segment(50, 50, Duration.ofMinutes(1)),
				new Segment(50, 100, Duration.ofSeconds(1)), new Segment(100, 100, Duration.ofSeconds(59)));
	}

	@Test
	void refusesAStageOfPartSeconds() {
		assertThatThrownBy(() -> new NotifierSeed001().load(Settings.of(Map.of(), List.of("STAGE=1500ms"))))
			.isInstanceOf(BadInput.class)
			.hasMessage("STAGE=1500ms: whole seconds or minutes, 2s at least");
	}

}
