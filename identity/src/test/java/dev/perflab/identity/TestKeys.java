package dev.perflab.identity;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;

/**
 * Fresh RSA keys for every test that signs (this module's, platform's {@code TestIdentity}, the gateway's tokens,
 * e2e's foreign key: the identity test-jar), and a clock the tests move by hand.
 */
public final class TestKeys {

	private TestKeys() {
	}

	/** A fresh 2048-bit RSA key pair. */
	public static KeyPair keyPair() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}

	/** A fresh RSA private key (its public half: {@link IdentityKeys#publicKey}). */
	public static RSAPrivateCrtKey generate() {
		return (RSAPrivateCrtKey) keyPair().getPrivate();
	}

	static String publicPem(RSAPrivateCrtKey key) {
		RSAPublicKey pub = IdentityKeys.publicKey(key);
		return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(pub.getEncoded())
				+ "\n-----END PUBLIC KEY-----\n";
	}

	static String privatePem(RSAPrivateCrtKey key) {
		return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
				+ "\n-----END PRIVATE KEY-----\n";
	}

	static final class MovableClock extends Clock {

		private volatile Instant now;

		MovableClock(Instant now) {
			this.now = now;
		}

		void advance(java.time.Duration by) {
			now = now.plus(by);
		}

		@Override
		public Instant instant() {
			return now;
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}
	}
}
