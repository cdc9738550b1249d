package dev.perflab.route.points;

/**
 * A coordinate as JSON writes it, without {@link Double#toString} for the common case. Points are stored as doubles
 * of at most 7 decimals (1 cm); for such a value the decimal of those 7 digits is the shortest one that reads back as
 * the same double, so it is exactly what {@code Double.toString} (and Jackson after it) writes, built here from one
 * multiplication and a few divisions instead of the general algorithm and a String per number. Formatting doubles
 * was a fifth of the CPU of filling a route's body (JFR). Any other value is left to {@code Double.toString}.
 */
final class Coordinates {

	private static final double SCALE = 1e7;

	private Coordinates() {
	}

	/**
	 * Writes {@code value} into {@code out} (24 chars at least) when it has at most 7 fractional digits and lies where
	 * {@code Double.toString} writes plain digits (10<sup>-3</sup> to 10<sup>7</sup>); returns the length written, or
	 * 0 when the value is for {@code Double.toString}.
	 */
	static int fixed7(double value, char[] out) {
		double magnitude = Math.abs(value);
		if (!(magnitude >= 1e-3 && magnitude < 1e7)) {
			return 0; // also NaN, infinities and zeros
		}
		long scaled = Math.round(magnitude * SCALE);
		// exact: scaled and 1e7 are exact doubles and the quotient is correctly rounded, so equality means the decimal
		// scaled * 1e-7 reads back as this double
		if (scaled / SCALE != magnitude) {
			return 0;
		}
		int at = 0;
		if (value < 0) {
			out[at++] = '-';
		}
		long whole = scaled / 10_000_000L;
		int fraction = (int) (scaled % 10_000_000L);
		at = digits(whole, out, at);
		out[at++] = '.';
		if (fraction == 0) {
			out[at++] = '0';
			return at;
		}
		int count = 7;
		while (fraction % 10 == 0) {
			fraction /= 10;
			count--;
		}
		for (int i = at + count - 1; i >= at; i--) {
			out[i] = (char) ('0' + fraction % 10);
			fraction /= 10;
		}
		return at + count;
	}

	private static int digits(long number, char[] out, int at) {
		int count = 1;
		for (long rest = number / 10; rest > 0; rest /= 10) {
			count++;
		}
		for (int i = at + count - 1; i >= at; i--) {
			out[i] = (char) ('0' + number % 10);
			number /= 10;
		}
		return at + count;
	}
}
