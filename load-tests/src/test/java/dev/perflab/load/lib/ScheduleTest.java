package dev.perflab.load.lib;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

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
	void runnersTakeTheWholeSchedulesArrivalsInTurnAtTheirTimes() {
		List<Function<Share, Schedule>> schedules = List.of(
				(share) -> Schedule.of(20, Duration.ofSeconds(5), Profile.SMOKE.segments(20, null), Duration.ZERO, share),
				(share) -> Schedule.of(10, Duration.ZERO, Profile.SPIKE.segments(10, Duration.ofSeconds(10)),
						Duration.ZERO, share),
				(share) -> Schedule.of(7, Duration.ofMillis(500), Profile.AVERAGE.segments(7, Duration.ofMillis(1300)),
						Duration.ZERO, share),
				(share) -> Schedule.of(0, Duration.ZERO, List.of(new Segment(50, 50, Duration.ofSeconds(3)),
						new Segment(50, 100, Duration.ofSeconds(1)), new Segment(100, 100, Duration.ofSeconds(2))),
						Duration.ZERO, share));
		for (Function<Share, Schedule> schedule : schedules) {
			Schedule whole = schedule.apply(Share.WHOLE);
			for (int runners = 2; runners <= 5; runners++) {
				int sum = 0;
				for (int index = 0; index < runners; index++) {
					Schedule part = schedule.apply(new Share(runners, index));
					sum += part.arrivals();
					// runner i's arrival j is the whole schedule's arrival j x runners + i, due when that one is
					for (int j = 0; j < part.arrivals(); j++) {
						int k = j * runners + index;
						assertThat(part.dueMillis(j)).as("runner %d of %d, arrival %d", index, runners, j)
							.isBetween(whole.dueMillis(k) - 1, whole.dueMillis(k) + 1);
						assertThat(part.isWarmup(j)).isEqualTo(whole.isWarmup(k));
					}
					assertThat(part.arrivalSeconds()).isEqualTo(whole.arrivalSeconds());
					assertThat(part.peakRate()).isEqualTo(whole.peakRate() / runners);
				}
				assertThat(sum).as("%d runners", runners).isEqualTo(whole.arrivals());
			}
		}
	}

	@Test
	void aDurationReplacesEveryHoldOfAStress() {
		assertThat(Profile.STRESS.segments(10, Duration.ofSeconds(20)).stream().map(Segment::length).toList())
			.containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(20),
					Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofSeconds(30));
	}

}
