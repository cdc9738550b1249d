package dev.perflab.platform;

import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.StringUtils;

import dev.perflab.identity.IdentityKeys;
import dev.perflab.identity.IdentitySigner;
import dev.perflab.identity.IdentityVerifier;

/**
 * The identity beans of a servlet service: the verifier behind {@link Caller} and {@link ServiceCaller} (when
 * {@code perflab.identity.trusted} names an issuer), and a signer for the service's own calls to others (when
 * {@code perflab.identity.signing-key} is set). A key file that cannot be read stops the start, so a pod never runs
 * refusing every caller. Both belong to the web application: a run without a web server (mail's seeder) needs no key.
 */
@AutoConfiguration
@EnableConfigurationProperties(IdentityProperties.class)
public class IdentityAutoConfiguration {

	private static final Logger log = LoggerFactory.getLogger(IdentityAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	IdentityVerifier perflabIdentityVerifier(IdentityProperties properties, Environment environment,
			ResourceLoader resources) {
		if (properties.trusted().isEmpty()) {
			log.warn("perflab.identity.trusted is empty: every request that needs a caller is answered 401");
			return null;
		}
		String audience = StringUtils.hasText(properties.audience()) ? properties.audience()
				: environment.getRequiredProperty("spring.application.name");
		Map<String, List<RSAPublicKey>> trusted = new LinkedHashMap<>();
		properties.trusted().forEach((issuer, location) -> trusted.put(issuer, keys(resources, issuer, location)));
		log.info("identity: audience {}, trusted issuers {}", audience, trusted.keySet());
		return new IdentityVerifier(trusted, audience, properties.clockSkew(), Clock.systemUTC());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty("perflab.identity.signing-key")
	@ConditionalOnWebApplication
	IdentitySigner perflabIdentitySigner(IdentityProperties properties, Environment environment,
			ResourceLoader resources) {
		String issuer = StringUtils.hasText(properties.issuer()) ? properties.issuer()
				: "perflab-" + environment.getRequiredProperty("spring.application.name");
		Resource key = resources.getResource(properties.signingKey());
		try {
			return new IdentitySigner(issuer, IdentityKeys.privateKey(key), properties.ttl(), Clock.systemUTC());
		}
		catch (RuntimeException e) {
			throw new IllegalStateException("perflab.identity.signing-key " + properties.signingKey() + ": "
					+ e.getMessage() + " (scripts/lib/jwt.sh keys makes the dev keys)", e);
		}
	}

	private static List<RSAPublicKey> keys(ResourceLoader resources, String issuer, String location) {
		try {
			return IdentityKeys.publicKeys(resources.getResource(location));
		}
		catch (RuntimeException e) {
			throw new IllegalStateException("perflab.identity.trusted." + issuer + " " + location + ": " + e.getMessage()
					+ " (scripts/lib/jwt.sh keys makes the dev keys)", e);
		}
	}
}
