package dev.perflab.platform;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.test.context.DynamicPropertyRegistry;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentityKeys;
import dev.perflab.identity.IdentitySigner;
import dev.perflab.identity.IdentityVerifier;
import dev.perflab.identity.TestKeys;

/**
 * Identity keys the tests generate (once per JVM, written to a temporary folder) and the tokens signed with them:
 * the gateway's and mail's, as the chart and scripts/lib/jwt.sh make them for real, and a foreign key nobody trusts.
 * A test context trusts them through the same properties a deployment sets.
 */
public final class TestIdentity {

	private static final RSAPrivateCrtKey GATEWAY_KEY = TestKeys.generate();

	private static final RSAPrivateCrtKey MAIL_KEY = TestKeys.generate();

	private static final RSAPrivateCrtKey FOREIGN_KEY = TestKeys.generate();

	private static final Path DIR = write();

	private static final IdentitySigner GATEWAY = signer(Identity.GATEWAY, GATEWAY_KEY);

	private static final IdentitySigner MAIL = signer(Identity.MAIL, MAIL_KEY);

	private static final IdentitySigner FOREIGN_GATEWAY = signer(Identity.GATEWAY, FOREIGN_KEY);

	private static final IdentitySigner FOREIGN_MAIL = signer(Identity.MAIL, FOREIGN_KEY);

	private TestIdentity() {
	}

	/** Trust the test keys of these signers ({@code gateway}, {@code mail}) as {@code perflab-<signer>}. */
	public static void trust(DynamicPropertyRegistry registry, String... signers) {
		for (String signer : signers) {
			registry.add("perflab.identity.trusted.perflab-" + signer, () -> "file:" + DIR.resolve(signer + ".pem"));
		}
	}

	/** Sign the service's own calls with mail's test key (mail's outbox relay). */
	public static void signAsMail(DynamicPropertyRegistry registry) {
		registry.add("perflab.identity.signing-key", () -> "file:" + DIR.resolve("mail.key"));
	}

	/** A user identity as the gateway signs it for one service. */
	public static String user(String user, String office, String audience) {
		return GATEWAY.sign(user, office, audience);
	}

	/** Mail's relay identity, signed with mail's test key, bound to nothing (refused by a service's endpoint). */
	public static String mail(String audience) {
		return MAIL.sign("mail", null, audience);
	}

	/** Mail's relay identity for one request, as mail's outbox relay signs each push. */
	public static String mail(String audience, String method, String path, byte[] body) {
		return MAIL.signRequest("mail", audience, method, path, body);
	}

	/** A user identity claiming the gateway as issuer, signed with a key nobody trusts. */
	public static String forgedUser(String user, String office, String audience) {
		return FOREIGN_GATEWAY.sign(user, office, audience);
	}

	/** Mail's relay identity signed with a key nobody trusts. */
	public static String forgedMail(String audience) {
		return FOREIGN_MAIL.sign("mail", null, audience);
	}

	/** Mail's relay identity for one request, signed with a key nobody trusts. */
	public static String forgedMail(String audience, String method, String path, byte[] body) {
		return FOREIGN_MAIL.signRequest("mail", audience, method, path, body);
	}

	/** The signer a service configured with {@link #signAsMail} gets. */
	public static IdentitySigner mailSigner() {
		return MAIL;
	}

	/** A verifier for one audience trusting the test keys of these signers, as a service's context builds it. */
	public static IdentityVerifier verifier(String audience, String... signers) {
		Map<String, List<RSAPublicKey>> trusted = new LinkedHashMap<>();
		for (String signer : signers) {
			RSAPrivateCrtKey key = switch (signer) {
				case "gateway" -> GATEWAY_KEY;
				case "mail" -> MAIL_KEY;
				default -> throw new IllegalArgumentException(signer);
			};
			trusted.put("perflab-" + signer, List.of(IdentityKeys.publicKey(key)));
		}
		return new IdentityVerifier(trusted, audience, Duration.ofSeconds(10), Clock.systemUTC());
	}

	private static IdentitySigner signer(String issuer, RSAPrivateCrtKey key) {
		return new IdentitySigner(issuer, key, Duration.ofSeconds(60), Clock.systemUTC());
	}


	private static Path write() {
		try {
			Path dir = Files.createTempDirectory("perflab-identity-");
			dir.toFile().deleteOnExit();
			for (var entry : Map.of("gateway", GATEWAY_KEY, "mail", MAIL_KEY).entrySet()) {
				Path pem = dir.resolve(entry.getKey() + ".pem");
				Path key = dir.resolve(entry.getKey() + ".key");
				Files.writeString(pem, pem("PUBLIC KEY", IdentityKeys.publicKey(entry.getValue()).getEncoded()));
				Files.writeString(key, pem("PRIVATE KEY", entry.getValue().getEncoded()));
				pem.toFile().deleteOnExit();
				key.toFile().deleteOnExit();
			}
			return dir;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static String pem(String type, byte[] der) {
		return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder().encodeToString(der) + "\n-----END " + type
				+ "-----\n";
	}
}
