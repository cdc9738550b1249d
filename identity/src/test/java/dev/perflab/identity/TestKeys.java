package dev.perflab.identity;

import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;

/** Fresh RSA keys and a clock the tests move by hand. */
final class TestKeys {

	private TestKeys() {
	}

	static RSAPrivateCrtKey generate() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return (RSAPrivateCrtKey) generator.generateKeyPair().getPrivate();
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
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
