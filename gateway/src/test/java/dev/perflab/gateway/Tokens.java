package dev.perflab.gateway;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/** A test key pair and RS256 tokens signed with it, as an identity provider would issue them. */
final class Tokens {

	static final String ISSUER = "https://issuer.test";

	static final KeyPair KEYS = generate();

	static final KeyPair OTHER_KEYS = generate();

	private Tokens() {
	}

	static Path publicKeyPem() throws IOException {
		Path file = Files.createTempFile("perflab-jwt", ".pem");
		Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n"
				+ Base64.getMimeEncoder().encodeToString(KEYS.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
		return file;
	}

	static String valid(String user, String office) {
		long now = Instant.now().getEpochSecond();
		return sign(KEYS.getPrivate(), "RS256", ISSUER, user, office, now + 600);
	}

	static String sign(PrivateKey key, String alg, String issuer, String user, String office, long exp) {
		String header = b64("{\"alg\":\"" + alg + "\",\"typ\":\"JWT\"}");
		String payload = b64("{\"iss\":\"" + issuer + "\",\"sub\":\"" + user + "\",\"office\":\"" + office
				+ "\",\"exp\":" + exp + "}");
		try {
			Signature rsa = Signature.getInstance("SHA256withRSA");
			rsa.initSign(key);
			rsa.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
			return header + "." + payload + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}

	static String b64(String s) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
	}

	private static KeyPair generate() {
		try {
			KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
			generator.initialize(2048);
			return generator.generateKeyPair();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}
}
