package dev.perflab.identity;

import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IdentitySignerTest {

	static final RSAPrivateCrtKey KEY = TestKeys.generate();

	final TestKeys.MovableClock clock = new TestKeys.MovableClock(Instant.parse("2026-01-01T00:00:00Z"));

	final IdentitySigner signer = new IdentitySigner(Identity.GATEWAY, KEY, Duration.ofSeconds(60), clock);

	@Test
	void reusesATokenUntilHalfItsLifetimeIsGone() {
		String first = signer.sign("alice", "1", "shortener");

		clock.advance(Duration.ofSeconds(29));
		assertThat(signer.sign("alice", "1", "shortener")).isSameAs(first);

		clock.advance(Duration.ofSeconds(1));
		String renewed = signer.sign("alice", "1", "shortener");
		assertThat(renewed).isNotEqualTo(first);
		IdentityVerifier verifier = new IdentityVerifier(Map.of(Identity.GATEWAY, List.of(IdentityKeys.publicKey(KEY))),
				"shortener", Duration.ZERO, clock);
		assertThat(verifier.verify(renewed).expiresAt()).isEqualTo(clock.instant().plusSeconds(60));
	}

	@Test
	void keepsOneTokenPerSubjectOfficeAndAudience() {
		String alice = signer.sign("alice", "1", "shortener");

		assertThat(signer.sign("alice", "2", "shortener")).isNotEqualTo(alice);
		assertThat(signer.sign("alice", "1", "mail")).isNotEqualTo(alice);
		assertThat(signer.sign("bob", "1", "shortener")).isNotEqualTo(alice);
		assertThat(signer.sign("alice", null, "shortener")).isNotEqualTo(alice);
		assertThat(signer.sign("alice", "1", "shortener")).isSameAs(alice);
	}

	@Test
	void namesItsKeyByTheRfc7638Thumbprint() {
		String token = signer.sign("alice", "1", "shortener");
		String header = new String(java.util.Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))));

		assertThat(header).contains("\"kid\":\"" + IdentityKeys.kid(IdentityKeys.publicKey(KEY)) + "\"")
			.contains("\"typ\":\"perflab-identity+jwt\"").contains("\"alg\":\"RS256\"");
		assertThat(signer.kid()).hasSize(43);
	}
}
