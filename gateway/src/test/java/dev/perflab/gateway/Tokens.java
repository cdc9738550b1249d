package dev.perflab.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.function.Consumer;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import dev.perflab.identity.TestKeys;

/** Test key pairs and RS256 tokens signed with them, as an identity provider would issue them (Nimbus JOSE). */
final class Tokens {

	static final String ISSUER = "https://issuer.test";

	static final String AUDIENCE = "perflab";

	/** The identity provider's current key, and the next one (a rotation: the PEM holds both). */
	static final KeyPair KEYS = TestKeys.keyPair();

	static final KeyPair NEXT_KEYS = TestKeys.keyPair();

	/** Nobody trusts this one. */
	static final KeyPair OTHER_KEYS = TestKeys.keyPair();

	/** The gateway's own identity signing key; the test upstream verifies with its public half. */
	static final KeyPair IDENTITY_KEYS = TestKeys.keyPair();

	private Tokens() {
	}

	/** Both of the provider's keys, as a rotation publishes them. */
	static Path publicKeyPem() throws IOException {
		return write("perflab-jwt", pem("PUBLIC KEY", KEYS.getPublic()) + pem("PUBLIC KEY", NEXT_KEYS.getPublic()));
	}

	static Path identityKeyPem() throws IOException {
		return write("perflab-identity", pem("PRIVATE KEY", IDENTITY_KEYS.getPrivate()));
	}

	static String valid(String user, String office) {
		return token(KEYS.getPrivate(), claims -> claims.subject(user).claim("office", office));
	}

	/** A valid token (issuer, audience, typ JWT, 10 minutes) changed by {@code edit}. */
	static String token(PrivateKey key, Consumer<JWTClaimsSet.Builder> edit) {
		return token(key, JOSEObjectType.JWT, edit);
	}

	static String token(PrivateKey key, JOSEObjectType type, Consumer<JWTClaimsSet.Builder> edit) {
		Instant now = Instant.now();
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER)
			.audience(List.of(AUDIENCE))
			.subject("alice")
			.claim("office", "1")
			.issueTime(Date.from(now))
			.expirationTime(Date.from(now.plusSeconds(600)));
		edit.accept(claims);
		try {
			SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).type(type).keyID("test").build(),
					claims.build());
			jwt.sign(new RSASSASigner((RSAPrivateKey) key));
			return jwt.serialize();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}

	static String b64(String s) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
	}

	private static String pem(String type, java.security.Key key) {
		return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
				+ "\n-----END " + type + "-----\n";
	}

	private static Path write(String prefix, String content) throws IOException {
		Path file = Files.createTempFile(prefix, ".pem");
		file.toFile().deleteOnExit();
		Files.writeString(file, content);
		return file;
	}

	static PublicKey identityPublicKey() {
		return IDENTITY_KEYS.getPublic();
	}

}
