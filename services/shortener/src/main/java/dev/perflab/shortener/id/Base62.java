package dev.perflab.shortener.id;

/** Base62 of a non-negative long: at most 11 characters for a 63-bit Snowflake id. */
public final class Base62 {

	private static final char[] DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

	public static final int MAX_LENGTH = 11;

	private Base62() {
	}

	public static String encode(long value) {
		if (value < 0) {
			throw new IllegalArgumentException("negative id " + value);
		}
		char[] out = new char[MAX_LENGTH];
		int pos = MAX_LENGTH;
		do {
			out[--pos] = DIGITS[(int) (value % 62)];
			value /= 62;
		}
		while (value > 0);
		return new String(out, pos, MAX_LENGTH - pos);
	}

	public static boolean isCode(String s) {
		if (s == null || s.isEmpty() || s.length() > MAX_LENGTH) {
			return false;
		}
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (!(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z')) {
				return false;
			}
		}
		return true;
	}
}
