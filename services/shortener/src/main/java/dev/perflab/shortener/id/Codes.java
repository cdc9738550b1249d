package dev.perflab.shortener.id;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * Short codes that give nothing away: the 64-bit id through a keyed permutation, written as exactly 11 Base62
 * characters. Base62 of the Snowflake id itself showed the live worker ids in every code, and with about two
 * links per millisecond a scan of the next ids found every new link; without the key, a code is one of 2^64 and
 * says nothing about its neighbours.
 * <p>
 * The permutation is a balanced Feistel network over two 32-bit halves, ten rounds with AES as the round function
 * (the construction of NIST's FF1): a bijection, so distinct ids never share a code. Codes are stored with their
 * link and looked up as stored, so codes issued before (plain Base62 of the id, at most 10 characters until 2030)
 * keep redirecting, and a new key changes new codes only.
 */
public final class Codes {

	/** The secret's setting, and its name in the environment. */
	public static final String SETTING = "perflab.shortener.code-key (PERFLAB_SHORTENER_CODEKEY)";

	private static final int ROUNDS = 10;

	private final SecretKeySpec key;

	private Codes(byte[] key) {
		this.key = new SecretKeySpec(key, "AES");
	}

	/** @param base64Key 16, 24 or 32 random bytes in base64 */
	public static Codes withKey(String base64Key) {
		if (base64Key == null || base64Key.isBlank()) {
			throw new IllegalStateException(SETTING + " is not set: short codes need a secret key "
					+ "(16, 24 or 32 random bytes in base64, e.g. `openssl rand -base64 32`)");
		}
		byte[] key;
		try {
			key = Base64.getDecoder().decode(base64Key.strip());
		}
		catch (IllegalArgumentException e) {
			throw new IllegalStateException(SETTING + " is not base64", e);
		}
		if (key.length != 16 && key.length != 24 && key.length != 32) {
			throw new IllegalStateException(SETTING + " must be 16, 24 or 32 bytes, was " + key.length);
		}
		return new Codes(key);
	}

	/** The code of a new link. */
	public String of(long id) {
		return Base62.encodeUnsigned(permute(id));
	}

	/** The id a code of {@link #of} was made from. */
	public long idOf(String code) {
		return invert(Base62.decodeUnsigned(code));
	}

	long permute(long id) {
		Cipher aes = aes();
		int left = (int) (id >>> 32);
		int right = (int) id;
		for (int round = 0; round < ROUNDS; round++) {
			int next = left ^ roundValue(aes, round, right);
			left = right;
			right = next;
		}
		return ((long) left << 32) | (right & 0xFFFF_FFFFL);
	}

	long invert(long permuted) {
		Cipher aes = aes();
		int left = (int) (permuted >>> 32);
		int right = (int) permuted;
		for (int round = ROUNDS - 1; round >= 0; round--) {
			int previous = right ^ roundValue(aes, round, left);
			right = left;
			left = previous;
		}
		return ((long) left << 32) | (right & 0xFFFF_FFFFL);
	}

	/** AES of (round, half): a different pseudo-random function for every round. */
	private static int roundValue(Cipher aes, int round, int half) {
		byte[] block = ByteBuffer.allocate(16).put((byte) round).putInt(half).array();
		try {
			return ByteBuffer.wrap(aes.doFinal(block)).getInt();
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException(e);
		}
	}

	/** A cipher per code: Cipher is not thread-safe, and one code costs ten blocks. */
	private Cipher aes() {
		try {
			Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
			aes.init(Cipher.ENCRYPT_MODE, key);
			return aes;
		}
		catch (GeneralSecurityException e) {
			throw new IllegalStateException(e);
		}
	}
}
