package dev.perflab.identity;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.RSAKey;

import org.springframework.core.io.Resource;

/**
 * Reads the identity keys from PEM: a signer's private key as PKCS#8 ({@code PRIVATE KEY}, what openssl genpkey
 * writes) or PKCS#1 ({@code RSA PRIVATE KEY}, what Helm's {@code genPrivateKey}/{@code genSelfSignedCert} write), and
 * the keys a service trusts as {@code PUBLIC KEY} or {@code CERTIFICATE} blocks, any number in one file: during a key
 * rotation the file holds the old and the new key, and every key in it is trusted.
 */
public final class IdentityKeys {

	private static final Pattern BLOCK = Pattern
		.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]+?)-----END \\1-----");

	// AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters, DER
	private static final byte[] RSA_ALGORITHM = { 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
			(byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00 };

	private IdentityKeys() {
	}

	public static RSAPrivateCrtKey privateKey(Resource pem) {
		return privateKey(read(pem));
	}

	public static RSAPrivateCrtKey privateKey(String pem) {
		for (Block block : blocks(pem)) {
			byte[] pkcs8 = switch (block.type()) {
				case "PRIVATE KEY" -> block.der();
				case "RSA PRIVATE KEY" -> pkcs1ToPkcs8(block.der());
				default -> null;
			};
			if (pkcs8 != null) {
				try {
					return (RSAPrivateCrtKey) rsa().generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
				}
				catch (GeneralSecurityException | ClassCastException e) {
					throw new IllegalArgumentException("not an RSA private key: " + e.getMessage(), e);
				}
			}
		}
		throw new IllegalArgumentException("no PRIVATE KEY or RSA PRIVATE KEY block in the PEM");
	}

	public static List<RSAPublicKey> publicKeys(Resource pem) {
		return publicKeys(read(pem));
	}

	/** Every {@code PUBLIC KEY} and {@code CERTIFICATE} in the PEM, in order; at least one. */
	public static List<RSAPublicKey> publicKeys(String pem) {
		List<RSAPublicKey> keys = new ArrayList<>();
		try {
			for (Block block : blocks(pem)) {
				switch (block.type()) {
					case "PUBLIC KEY" -> keys.add((RSAPublicKey) rsa().generatePublic(new X509EncodedKeySpec(block.der())));
					case "CERTIFICATE" -> {
						Certificate certificate = CertificateFactory.getInstance("X.509")
							.generateCertificate(new ByteArrayInputStream(block.der()));
						keys.add((RSAPublicKey) certificate.getPublicKey());
					}
					default -> {
					}
				}
			}
		}
		catch (GeneralSecurityException | ClassCastException e) {
			throw new IllegalArgumentException("not an RSA public key or certificate: " + e.getMessage(), e);
		}
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("no PUBLIC KEY or CERTIFICATE block in the PEM");
		}
		return List.copyOf(keys);
	}

	/** The public half of a private key (a CRT key carries the modulus and public exponent). */
	public static RSAPublicKey publicKey(RSAPrivateCrtKey key) {
		try {
			return (RSAPublicKey) rsa().generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
		}
		catch (GeneralSecurityException e) {
			throw new IllegalArgumentException(e);
		}
	}

	/** The key id: the key's RFC 7638 thumbprint (SHA-256, base64url), the same for whoever computes it. */
	public static String kid(RSAPublicKey key) {
		try {
			return new RSAKey.Builder(key).build().computeThumbprint().toString();
		}
		catch (JOSEException e) {
			throw new IllegalStateException(e);
		}
	}

	private static String read(Resource pem) {
		try (InputStream in = pem.getInputStream()) {
			return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot read identity key " + pem.getDescription(), e);
		}
	}

	private static List<Block> blocks(String pem) {
		List<Block> blocks = new ArrayList<>();
		Matcher m = BLOCK.matcher(pem);
		while (m.find()) {
			blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
		}
		return blocks;
	}

	/** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo: version 0, rsaEncryption, the key as OCTET STRING. */
	private static byte[] pkcs1ToPkcs8(byte[] pkcs1) {
		byte[] version = { 0x02, 0x01, 0x00 };
		byte[] octets = der(0x04, pkcs1);
		byte[] body = new byte[version.length + RSA_ALGORITHM.length + octets.length];
		System.arraycopy(version, 0, body, 0, version.length);
		System.arraycopy(RSA_ALGORITHM, 0, body, version.length, RSA_ALGORITHM.length);
		System.arraycopy(octets, 0, body, version.length + RSA_ALGORITHM.length, octets.length);
		return der(0x30, body);
	}

	private static byte[] der(int tag, byte[] content) {
		byte[] length = content.length < 0x80 ? new byte[] { (byte) content.length } : longLength(content.length);
		byte[] out = new byte[1 + length.length + content.length];
		out[0] = (byte) tag;
		System.arraycopy(length, 0, out, 1, length.length);
		System.arraycopy(content, 0, out, 1 + length.length, content.length);
		return out;
	}

	private static byte[] longLength(int length) {
		byte[] digits = BigInteger.valueOf(length).toByteArray();
		int skip = digits[0] == 0 ? 1 : 0;
		byte[] out = new byte[1 + digits.length - skip];
		out[0] = (byte) (0x80 | (digits.length - skip));
		System.arraycopy(digits, skip, out, 1, digits.length - skip);
		return out;
	}

	private static KeyFactory rsa() throws GeneralSecurityException {
		return KeyFactory.getInstance("RSA");
	}

	private record Block(String type, byte[] der) {
	}
}
