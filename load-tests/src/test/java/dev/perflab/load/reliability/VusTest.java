package dev.perflab.load.reliability;

import java.util.List;

import dev.perflab.load.lib.Share;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * k6's VUs: made before the load or when none is idle, taken the one idle longest first, numbered from 1 in the run,
 * each the caller of its number.
 */
class VusTest {

	@Test
	void goesRoundItsIdleVusAndMakesOneWhenNoneIs() {
		Vus vus = new Vus(List.of("t1", "t2", "t3"), Share.WHOLE);
		vus.preallocate("crash", 2);
		Vu first = vus.take("crash");
		Vu second = vus.take("crash");
		Vu third = vus.take("crash");
		assertThat(List.of(first.number, second.number, third.number)).containsExactly(1, 2, 3);
		assertThat(List.of(first.token, second.token, third.token)).containsExactly("t1", "t2", "t3");
		vus.give("crash", second);
		vus.give("crash", first);
		assertThat(vus.take("crash")).isSameAs(second);
		// another part's VUs are its own
		assertThat(vus.take("streams").number).isEqualTo(4);
		assertThat(vus.take("streams").token).isEqualTo("t2");
	}

	@Test
	void numbersVusAcrossRunnersApart() {
		Vus second = new Vus(List.of("t1"), new Share(3, 1));
		assertThat(second.take("crash").number).isEqualTo(2);
		assertThat(second.take("crash").number).isEqualTo(5);
	}

}
