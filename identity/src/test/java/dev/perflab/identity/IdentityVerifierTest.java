package dev.perflab.identity;

import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.JwsHeader;
import org.springframework.security.oauth2.jwt.JwtClaimsSet;
import org.springframework.security.oauth2.jwt.JwtEncoderParameters;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdentityVerifierTest {

	static final RSAPrivateCrtKey GATEWAY_KEY = TestKeys.generate();

	static final RSAPrivateCrtKey MAIL_KEY = TestKeys.generate();

	static final RSAPrivateCrtKey FOREIGN_KEY = TestKeys.generate();

	final TestKeys.MovableClock clock = new TestKeys.MovableClock(Instant.parse("2026-01-01T00:00:00Z"));

	final IdentitySigner gateway = new IdentitySigner(Identity.GATEWAY, GATEWAY_KEY, Duration.ofSeconds(60), clock);

	final IdentityVerifier shortener = verifier("shortener", Map.of(Identity.GATEWAY, List.of(pub(GATEWAY_KEY))));

	@Test
	void verifiesWhatTheGatewaySigned() {
		VerifiedIdentity identity = shortener.verify(gateway.sign("alice", "1", "shortener"));

		assertThat(identity.issuer()).isEqualTo(Identity.GATEWAY);
		assertThat(identity.subject()).isEqualTo("alice");
		assertThat(identity.office()).isEqualTo("1");
		assertThat(identity.expiresAt()).isEqualTo(clock.instant().plusSeconds(60));
	}

	@Test
	void aTokenSignedForOneRequestNamesItsMethodPathAndBody() {
		IdentitySigner mail = new IdentitySigner(Identity.MAIL, MAIL_KEY, Duration.ofSeconds(60), clock);
		IdentityVerifier send = verifier("send", Map.of(Identity.MAIL, List.of(pub(MAIL_KEY))));
		byte[] body = "{\"mail_no\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8);

		VerifiedIdentity identity = send.verify(mail.signRequest("mail", "send", "PUT", "/internal/jobs/a-1", body));

		assertThat(identity.request()).isEqualTo(
				new VerifiedIdentity.Request("PUT", "/internal/jobs/a-1", IdentitySigner.digest(body)));
		assertThat(IdentitySigner.digest(body)).isNotEqualTo(IdentitySigner.digest(new byte[0]));
		assertThat(send.verify(mail.sign("mail", null, "send")).request()).as("an unbound token").isNull();
		assertThat(mail.signRequest("mail", "send", "PUT", "/internal/jobs/a-1", body))
			.as("never cached: each call its own signature")
			.isNotEqualTo(mail.sign("mail", null, "send"));
	}

	@Test
	void refusesATokenSignedByAForeignKey() {
		IdentitySigner forger = new IdentitySigner(Identity.GATEWAY, FOREIGN_KEY, Duration.ofSeconds(60), clock);

		assertThatThrownBy(() -> shortener.verify(forger.sign("alice", "1", "shortener")))
			.isInstanceOf(InvalidIdentityException.class).hasMessageContaining("bad signature");
	}

	@Test
	void refusesATokenWhoseSignatureWasCopiedOntoOtherClaims() {
		String alice = gateway.sign("alice", "1", "shortener");
		String bob = gateway.sign("bob", "1", "shortener");
		String spliced = bob.substring(0, bob.lastIndexOf('.')) + alice.substring(alice.lastIndexOf('.'));

		assertThatThrownBy(() -> shortener.verify(spliced)).isInstanceOf(InvalidIdentityException.class)
			.hasMessageContaining("bad signature");
	}

	@Test
	void refusesATokenForAnotherAudience() {
		assertThatThrownBy(() -> shortener.verify(gateway.sign("alice", "1", "mail")))
			.isInstanceOf(InvalidIdentityException.class).hasMessageContaining("aud");
	}

	@Test
	void refusesAnExpiredTokenEvenAfterVerifyingItOnce() {
		String token = gateway.sign("alice", "1", "shortener");
		assertThat(shortener.verify(token).subject()).isEqualTo("alice");

		clock.advance(Duration.ofSeconds(60 + 5 + 1));

		assertThatThrownBy(() -> shortener.verify(token)).isInstanceOf(InvalidIdentityException.class)
			.hasMessageContaining("expired");
	}

	@Test
	void acceptsATokenWithinTheClockSkew() {
		String token = gateway.sign("alice", "1", "shortener");
		clock.advance(Duration.ofSeconds(63));

		assertThat(shortener.verify(token).subject()).isEqualTo("alice");
	}

	@Test
	void refusesATokenOfAnotherType() {
		String userToken = encode(GATEWAY_KEY, "JWT", claims(Identity.GATEWAY, "alice", "1", "shortener"));

		assertThatThrownBy(() -> shortener.verify(userToken)).isInstanceOf(InvalidIdentityException.class)
			.hasMessageContaining("typ");
	}

	@Test
	void refusesATokenWithoutExpiry() {
		JwtClaimsSet claims = JwtClaimsSet.builder().issuer(Identity.GATEWAY).subject("alice").claim("office", "1")
			.audience(List.of("shortener")).build();

		assertThatThrownBy(() -> shortener.verify(encode(GATEWAY_KEY, Identity.TYPE, claims)))
			.isInstanceOf(InvalidIdentityException.class).hasMessageContaining("exp");
	}

	@Test
	void refusesAnUnsignedToken() {
		JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(Identity.GATEWAY).subject("alice").claim("office", "1")
			.audience("shortener").expirationTime(Date.from(clock.instant().plusSeconds(60))).build();
		String none = new PlainJWT(new com.nimbusds.jose.PlainHeader.Builder()
			.type(new com.nimbusds.jose.JOSEObjectType(Identity.TYPE)).build(), claims).serialize();

		assertThatThrownBy(() -> shortener.verify(none)).isInstanceOf(InvalidIdentityException.class)
			.hasMessageContaining("none");
	}

	@Test
	void refusesAnHs256TokenEvenKeyedWithThePublicKey() {
		// the classic confusion: the verifier's own public key used as an HMAC secret
		byte[] secret = pub(GATEWAY_KEY).getEncoded();
		NimbusJwtEncoder hmac = NimbusJwtEncoder.withSecretKey(new SecretKeySpec(secret, "HmacSHA256")).build();
		String token = hmac.encode(JwtEncoderParameters.from(JwsHeader.with(MacAlgorithm.HS256).type(Identity.TYPE).build(),
				claims(Identity.GATEWAY, "alice", "1", "shortener"))).getTokenValue();

		assertThatThrownBy(() -> shortener.verify(token)).isInstanceOf(InvalidIdentityException.class)
			.hasMessageContaining("bad signature");
	}

	@Test
	void refusesAnUnknownIssuerEvenWithATrustedKey() {
		IdentitySigner impostor = new IdentitySigner("perflab-other", GATEWAY_KEY, Duration.ofSeconds(60), clock);

		assertThatThrownBy(() -> shortener.verify(impostor.sign("alice", "1", "shortener")))
			.isInstanceOf(InvalidIdentityException.class).hasMessageContaining("unknown issuer");
	}

	@Test
	void refusesMailsKeyClaimingToBeTheGateway() {
		IdentityVerifier send = verifier("send",
				Map.of(Identity.GATEWAY, List.of(pub(GATEWAY_KEY)), Identity.MAIL, List.of(pub(MAIL_KEY))));
		IdentitySigner mailAsGateway = new IdentitySigner(Identity.GATEWAY, MAIL_KEY, Duration.ofSeconds(60), clock);
		IdentitySigner mail = new IdentitySigner(Identity.MAIL, MAIL_KEY, Duration.ofSeconds(60), clock);

		assertThatThrownBy(() -> send.verify(mailAsGateway.sign("alice", "1", "send")))
			.isInstanceOf(InvalidIdentityException.class).hasMessageContaining("bad signature");
		VerifiedIdentity relay = send.verify(mail.sign("mail", null, "send"));
		assertThat(relay.issuer()).isEqualTo(Identity.MAIL);
		assertThat(relay.subject()).isEqualTo("mail");
		assertThat(relay.office()).isNull();
	}

	@Test
	void refusesAGatewayTokenWithoutAnOffice() {
		assertThatThrownBy(() -> shortener.verify(gateway.sign("alice", null, "shortener")))
			.isInstanceOf(InvalidIdentityException.class).hasMessageContaining("office");
	}

	@Test
	void refusesGarbage() {
		for (String garbage : List.of("", "abc", "bnVsbA.e30.AA", "a.b.c.d.e")) {
			assertThatThrownBy(() -> shortener.verify(garbage)).as(garbage).isInstanceOf(InvalidIdentityException.class);
		}
	}

	@Test
	void trustsEveryKeyOfTheFileDuringARotation() {
		RSAPrivateCrtKey next = TestKeys.generate();
		List<RSAPublicKey> both = IdentityKeys.publicKeys(TestKeys.publicPem(GATEWAY_KEY) + TestKeys.publicPem(next));
		IdentityVerifier rotating = verifier("shortener", Map.of(Identity.GATEWAY, both));
		IdentitySigner old = gateway;
		IdentitySigner renewed = new IdentitySigner(Identity.GATEWAY, next, Duration.ofSeconds(60), clock);
		IdentitySigner foreign = new IdentitySigner(Identity.GATEWAY, FOREIGN_KEY, Duration.ofSeconds(60), clock);

		assertThat(old.kid()).isNotEqualTo(renewed.kid());
		assertThat(rotating.verify(old.sign("alice", "1", "shortener")).subject()).isEqualTo("alice");
		assertThat(rotating.verify(renewed.sign("bob", "1", "shortener")).subject()).isEqualTo("bob");
		assertThatThrownBy(() -> rotating.verify(foreign.sign("carol", "1", "shortener")))
			.isInstanceOf(InvalidIdentityException.class);
		// after the rotation the old key is dropped from the file: its tokens stop working
		IdentityVerifier rotated = verifier("shortener", Map.of(Identity.GATEWAY, List.of(pub(next))));
		assertThatThrownBy(() -> rotated.verify(old.sign("dave", "1", "shortener")))
			.isInstanceOf(InvalidIdentityException.class);
	}

	private IdentityVerifier verifier(String audience, Map<String, List<RSAPublicKey>> trusted) {
		return new IdentityVerifier(trusted, audience, Duration.ofSeconds(5), clock);
	}

	private JwtClaimsSet claims(String issuer, String subject, String office, String audience) {
		return JwtClaimsSet.builder().issuer(issuer).subject(subject).claim("office", office).audience(List.of(audience))
			.issuedAt(clock.instant()).expiresAt(clock.instant().plusSeconds(60)).build();
	}

	private static String encode(RSAPrivateCrtKey key, String type, JwtClaimsSet claims) {
		RSAPublicKey pub = pub(key);
		NimbusJwtEncoder encoder = NimbusJwtEncoder.withKeyPair(pub, key).build();
		return encoder.encode(JwtEncoderParameters.from(
				JwsHeader.with(SignatureAlgorithm.RS256).type(type).keyId(IdentityKeys.kid(pub)).build(), claims))
			.getTokenValue();
	}

	static RSAPublicKey pub(RSAPrivateCrtKey key) {
		return IdentityKeys.publicKey(key);
	}
}
