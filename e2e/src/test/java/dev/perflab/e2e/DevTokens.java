package dev.perflab.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;

/** RS256 tokens signed with the local stack's dev key (scripts/jwt.sh keys), as a real client would present. */
final class DevTokens {

	static final String ISSUER = System.getenv().getOrDefault("PERFLAB_JWT_ISSUER", "https://perflab.local/dev");

	private static final PrivateKey DEV_KEY = load(Path.of(System.getenv().getOrDefault("PERFLAB_JWT_DIR",
			System.getProperty("user.dir") + "/../.run/jwt"), "private.pem"));

	private DevTokens() {
	}

	static String token(String user, String office) {
		long now = Instant.now().getEpochSecond();
		return sign(DEV_KEY, ISSUER, user, office, now, now + 600);
	}

	static String expired(String user) {
		long now = Instant.now().getEpochSecond();
		return sign(DEV_KEY, ISSUER, user, "1", now - 3600, now - 1800);
	}

	static String wrongIssuer(String user) {
		long now = Instant.now().getEpochSecond();
		return sign(DEV_KEY, "https://evil.example", user, "1", now, now + 600);
	}

	static String signedByAnotherKey(String user) throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		long now = Instant.now().getEpochSecond();
		return sign(generator.generateKeyPair().getPrivate(), ISSUER, user, "1", now, now + 600);
	}

	static String sign(PrivateKey key, String issuer, String user, String office, long iat, long exp) {
		String header = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
		String payload = b64("{\"iss\":\"%s\",\"sub\":\"%s\",\"office\":\"%s\",\"iat\":%d,\"exp\":%d}".formatted(issuer,
				user, office, iat, exp));
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

	private static String b64(String json) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
	}

	private static PrivateKey load(Path pem) {
		try {
			String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
			return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
		}
		catch (Exception e) {
			throw new IllegalStateException("cannot read the dev signing key " + pem + "; run scripts/stack.sh up", e);
		}
	}
}
