package dev.perflab.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.Resource;

/**
 * Verifies RS256 bearer tokens: algorithm pinned to RS256 (never "none", never HMAC with the public key),
 * signature, issuer, expiry and not-before with a small clock skew, and a sane subject. A verified token is
 * remembered until it expires, so the RSA check runs once per token, not once per request.
 */
public class TokenVerifier {

	private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._@+-]{1,128}");

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final PublicKey key;

	private final String issuer;

	private final long skewSeconds;

	private final Clock clock;

	private final Cache<String, Identity> verified;

	public TokenVerifier(Resource publicKeyPem, String issuer, Duration skew, Clock clock) {
		this.key = load(publicKeyPem);
		this.issuer = issuer;
		this.skewSeconds = skew.toSeconds();
		this.clock = clock;
		this.verified = Caffeine.newBuilder().maximumSize(100_000).expireAfter(new Expiry<String, Identity>() {
			@Override
			public long expireAfterCreate(String token, Identity identity, long now) {
				return Math.max(0, identity.expiresAtEpochSecond() + skewSeconds - clock.instant().getEpochSecond())
						* 1_000_000_000L;
			}

			@Override
			public long expireAfterUpdate(String token, Identity identity, long now, long current) {
				return current;
			}

			@Override
			public long expireAfterRead(String token, Identity identity, long now, long current) {
				return current;
			}
		}).build();
	}

	/** The verified caller, or an {@link InvalidTokenException} saying why not. */
	public Identity verify(String token) {
		Identity known = verified.getIfPresent(token);
		if (known != null && known.expiresAtEpochSecond() + skewSeconds > clock.instant().getEpochSecond()) {
			return known;
		}
		Identity identity = check(token);
		verified.put(token, identity);
		return identity;
	}

	private Identity check(String token) {
		String[] parts = token.split("\\.", -1);
		if (parts.length != 3) {
			throw new InvalidTokenException("malformed token");
		}
		Map<?, ?> header = json(parts[0]);
		if (!"RS256".equals(header.get("alg"))) {
			throw new InvalidTokenException("only RS256 tokens are accepted");
		}
		try {
			Signature rsa = Signature.getInstance("SHA256withRSA");
			rsa.initVerify(key);
			rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
			if (!rsa.verify(Base64.getUrlDecoder().decode(parts[2]))) {
				throw new InvalidTokenException("bad signature");
			}
		}
		catch (InvalidTokenException e) {
			throw e;
		}
		catch (Exception e) {
			throw new InvalidTokenException("bad signature");
		}
		Map<?, ?> claims = json(parts[1]);
		long now = clock.instant().getEpochSecond();
		if (!issuer.equals(claims.get("iss"))) {
			throw new InvalidTokenException("unexpected issuer");
		}
		if (!(claims.get("exp") instanceof Number exp) || exp.longValue() + skewSeconds <= now) {
			throw new InvalidTokenException("token expired");
		}
		if (claims.get("nbf") instanceof Number nbf && nbf.longValue() - skewSeconds > now) {
			throw new InvalidTokenException("token not valid yet");
		}
		Object sub = claims.get("sub");
		Object office = claims.get("office");
		if (!(sub instanceof String user) || !SANE.matcher(user).matches() || office == null
				|| !SANE.matcher(String.valueOf(office)).matches()) {
			throw new InvalidTokenException("token lacks a valid sub or office");
		}
		return new Identity(user, String.valueOf(office), exp.longValue());
	}

	private static Map<?, ?> json(String base64) {
		try {
			return JSON.readValue(Base64.getUrlDecoder().decode(base64), Map.class);
		}
		catch (RuntimeException e) {
			throw new InvalidTokenException("malformed token");
		}
	}

	private static PublicKey load(Resource pem) {
		try {
			String base64 = pem.getContentAsString(StandardCharsets.US_ASCII)
				.replaceAll("-----[A-Z ]+-----", "")
				.replaceAll("\\s", "");
			return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
		}
		catch (Exception e) {
			throw new IllegalStateException("cannot read the JWT public key from " + pem
					+ " (perflab.gateway.jwt.public-key; the local stack makes one with scripts/jwt.sh keys)", e);
		}
	}

	public record Identity(String user, String office, long expiresAtEpochSecond) {
	}

	public static class InvalidTokenException extends RuntimeException {

		InvalidTokenException(String message) {
			super(message, null, false, false);
		}
	}
}
