package dev.perflab.identity;

import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** PEM as openssl and Helm write it (pkcs1.* were made with `openssl genrsa -traditional` and `openssl req -x509`). */
class IdentityKeysTest {

	@Test
	void readsAPkcs1KeyAndTrustsItsCertificate() {
		RSAPrivateCrtKey key = IdentityKeys.privateKey(new ClassPathResource("pkcs1.key"));
		List<RSAPublicKey> trusted = IdentityKeys.publicKeys(new ClassPathResource("pkcs1.crt"));

		assertThat(trusted).containsExactly(IdentityKeys.publicKey(key));
		assertThat(IdentityKeys.publicKeys(new ClassPathResource("pkcs1.pub"))).isEqualTo(trusted);
		IdentitySigner signer = new IdentitySigner(Identity.GATEWAY, key, Duration.ofSeconds(60), Clock.systemUTC());
		IdentityVerifier verifier = new IdentityVerifier(Map.of(Identity.GATEWAY, trusted), "mail", Duration.ZERO,
				Clock.systemUTC());
		assertThat(verifier.verify(signer.sign("alice", "1", "mail")).subject()).isEqualTo("alice");
	}

	@Test
	void readsAPkcs8Key() {
		RSAPrivateCrtKey key = TestKeys.generate();

		assertThat(IdentityKeys.privateKey(new ByteArrayResource(TestKeys.privatePem(key).getBytes())).getModulus())
			.isEqualTo(key.getModulus());
	}

	@Test
	void readsEveryKeyOfAFileWithCertificatesAndPublicKeysMixed() throws Exception {
		RSAPrivateCrtKey other = TestKeys.generate();
		String pem = new String(new ClassPathResource("pkcs1.crt").getContentAsByteArray()) + "\n"
				+ TestKeys.publicPem(other);

		assertThat(IdentityKeys.publicKeys(pem)).hasSize(2).contains(IdentityKeys.publicKey(other));
	}

	@Test
	void refusesAFileWithoutKeys() {
		assertThatThrownBy(() -> IdentityKeys.publicKeys("nothing here")).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> IdentityKeys.privateKey(TestKeys.publicPem(TestKeys.generate())))
			.isInstanceOf(IllegalArgumentException.class);
	}
}
