package dev.perflab.route.points;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The fast path writes exactly what Double.toString writes, and leaves every other value to it. */
class CoordinatesTest {

	private final char[] out = new char[24];

	@Test
	void aCoordinateOfAtMostSevenDecimalsIsWrittenAsDoubleToStringWritesIt() {
		SplittableRandom random = new SplittableRandom(7);
		for (int i = 0; i < 1_000_000; i++) {
			// what the API stores: a latitude or longitude of 0 to 7 decimals
			long scaled = random.nextLong(-1_800_000_000L, 1_800_000_001L);
			int decimals = random.nextInt(8);
			double value = BigDecimal.valueOf(scaled, 7).setScale(decimals, RoundingMode.DOWN).doubleValue();
			// below 1e-3 Double.toString writes 1.0E-4: left to it
			assertSameAsDoubleToString(value, Math.abs(value) >= 1e-3);
		}
		for (double edge : new double[] { 0.001, -0.001, 1.0, 37.0, 37.5, 180.0, -180.0, 9_999_999.9999999, 0.0010001,
				127.0000082, -122.4194 }) {
			assertSameAsDoubleToString(edge, true);
		}
	}

	@Test
	void anyOtherValueIsLeftForTheJdkToWrite() {
		SplittableRandom random = new SplittableRandom(11);
		for (int i = 0; i < 1_000_000; i++) {
			// arbitrary doubles: almost none has 7 decimals or fewer; whatever the fast path takes must still agree
			assertSameAsDoubleToString(random.nextDouble(-180, 180), false);
		}
		for (double other : new double[] { 0.0, -0.0, 0.0009999, 1e7, 1.5e7, -1e-4, 37.50000001, Double.NaN,
				Double.POSITIVE_INFINITY, Double.MIN_VALUE, Math.PI }) {
			assertThat(Coordinates.fixed7(other, out)).as("%s", other).isZero();
		}
	}

	private void assertSameAsDoubleToString(double value, boolean mustTake) {
		int length = Coordinates.fixed7(value, out);
		if (mustTake) {
			assertThat(length).as("%s taken by the fast path", value).isPositive();
		}
		if (length > 0) {
			assertThat(new String(out, 0, length)).as("%s", value).isEqualTo(Double.toString(value));
		}
	}
}
