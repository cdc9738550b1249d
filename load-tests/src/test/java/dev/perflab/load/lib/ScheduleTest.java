package dev.perflab.load.lib;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The arrivals of each profile, as k6's arrival-rate executors offered them.
 */
class ScheduleTest {

	@Test
	void aSmokeIsAWarmUpAtHalfTheRateThenTheRateEvenlySpaced() {
		Schedule schedule = Schedule.of(20, Duration.ofSeconds(5), Profile.SMOKE.segments(20, null), Duration.ofSeconds(35));
		assertThat(schedule.arrivals()).isEqualTo(10 * 5 + 20 * 15);
		assertThat(schedule.isWarmup(49)).isTrue();
		assertThat(schedule.isWarmup(50)).isFalse();
		assertThat(schedule.dueMillis(0)).isEqualTo(1000);
		assertThat(schedule.dueMillis(50)).isEqualTo(6000);
		assertThat(schedule.dueMillis(51)).isEqualTo(6050);
		assertThat(schedule.arrivalSeconds()).isEqualTo(21.0);
		assertThat(schedule.peakRate()).isEqualTo(20.0);
	}

	@Test
	void aSpikeReachesFiveTimesTheRate() {
		Schedule schedule = Schedule.of(10, Duration.ZERO, Profile.SPIKE.segments(10, Duration.ofSeconds(10)), Duration.ZERO);
		assertThat(schedule.peakRate()).isEqualTo(50.0);
		// 0->10 over 10 s, 10 s at 10, 10->50 over 5 s, 30 s at 50, 50->10 over 5 s, 10 s at 10
		assertThat(schedule.arrivals()).isEqualTo(50 + 100 + 150 + 1500 + 150 + 100);
		assertThat(schedule.arrivalSeconds()).isEqualTo(71.0);
	}

	@Test
	void aDurationReplacesEveryHoldOfAStress() {
		assertThat(Profile.STRESS.segments(10, Duration.ofSeconds(20)).stream().map(Segment::length).toList())
			.containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(20),
					Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofSeconds(30));
	}

}
