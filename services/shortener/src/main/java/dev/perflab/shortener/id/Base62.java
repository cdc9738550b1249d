package dev.perflab.shortener.id;

/** Base62 of longs: at most 11 characters for any 64 bits. */
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

	/** All 64 bits as an unsigned number, in exactly {@value #MAX_LENGTH} characters (zeros in front). */
	public static String encodeUnsigned(long value) {
		char[] out = new char[MAX_LENGTH];
		for (int pos = MAX_LENGTH - 1; pos >= 0; pos--) {
			out[pos] = DIGITS[(int) Long.remainderUnsigned(value, 62)];
			value = Long.divideUnsigned(value, 62);
		}
		return new String(out);
	}

	/** The inverse of {@link #encodeUnsigned}. */
	public static long decodeUnsigned(String code) {
		if (code.length() != MAX_LENGTH || !isCode(code)) {
			throw new IllegalArgumentException("not an " + MAX_LENGTH + "-character code: " + code);
		}
		long value = 0;
		for (int i = 0; i < MAX_LENGTH; i++) {
			char c = code.charAt(i);
			int digit = c <= '9' ? c - '0' : c <= 'Z' ? c - 'A' + 10 : c - 'a' + 36;
			long shifted = value * 62;
			long next = shifted + digit;
			if (Math.unsignedMultiplyHigh(value, 62) != 0 || Long.compareUnsigned(next, shifted) < 0) {
				throw new IllegalArgumentException("beyond 64 bits: " + code);
			}
			value = next;
		}
		return value;
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
