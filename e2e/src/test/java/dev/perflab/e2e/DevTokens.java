package dev.perflab.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.function.Consumer;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import dev.perflab.identity.TestKeys;

/** RS256 access tokens signed with the local stack's dev key (scripts/lib/jwt.sh keys), as a real client presents them. */
final class DevTokens {

	static final String ISSUER = System.getenv().getOrDefault("PERFLAB_JWT_ISSUER", "https://perflab.local/dev");

	static final String AUDIENCE = System.getenv().getOrDefault("PERFLAB_JWT_AUDIENCE", "perflab");

	private static final PrivateKey DEV_KEY = load(Path.of(System.getenv().getOrDefault("PERFLAB_JWT_DIR",
			System.getProperty("user.dir") + "/../.run/jwt"), "private.pem"));

	private DevTokens() {
	}

	static String token(String user, String office) {
		return sign(DEV_KEY, claims -> claims.subject(user).claim("office", office));
	}

	static String expired(String user) {
		Instant now = Instant.now();
		return sign(DEV_KEY, claims -> claims.subject(user)
			.issueTime(Date.from(now.minusSeconds(3600)))
			.expirationTime(Date.from(now.minusSeconds(1800))));
	}

	static String wrongIssuer(String user) {
		return sign(DEV_KEY, claims -> claims.subject(user).issuer("https://evil.example"));
	}

	/** A token of the right issuer meant for another API: the gateway must not take it. */
	static String forAnotherAudience(String user) {
		return sign(DEV_KEY, claims -> claims.subject(user).audience("billing"));
	}

	static String signedByAnotherKey(String user) {
		return sign(TestKeys.keyPair().getPrivate(), claims -> claims.subject(user));
	}

	/** A valid token for office 1 (issuer, audience, typ JWT, ten minutes), changed by {@code edit}. */
	static String sign(PrivateKey key, Consumer<JWTClaimsSet.Builder> edit) {
		Instant now = Instant.now();
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER)
			.audience(AUDIENCE)
			.claim("office", "1")
			.issueTime(Date.from(now))
			.expirationTime(Date.from(now.plusSeconds(600)));
		edit.accept(claims);
		try {
			SignedJWT jwt = new SignedJWT(
					new JWSHeader.Builder(JWSAlgorithm.RS256).type(JOSEObjectType.JWT).keyID("perflab-dev").build(),
					claims.build());
			jwt.sign(new RSASSASigner(key));
			return jwt.serialize();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}

	private static PrivateKey load(Path pem) {
		try {
			String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
			return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
		}
		catch (Exception e) {
			throw new IllegalStateException("cannot read the dev signing key " + pem + "; run scripts/stack/stack.sh up", e);
		}
	}
}
