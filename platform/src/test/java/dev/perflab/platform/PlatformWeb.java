package dev.perflab.platform;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import dev.perflab.identity.IdentitySigner;
import dev.perflab.identity.IdentityVerifier;

/**
 * What a {@code @WebMvcTest} slice of a service needs to answer as the service does: the problem+json handler, the
 * JSON rules, the body-size limit, the request ids and the {@link Caller} resolver (the platform's auto-configurations,
 * which a slice leaves out), and a verifier that trusts the test keys of {@link TestIdentity} (the gateway's and mail's)
 * for the service's own name, as a deployment trusts the real ones; a service that signs its own calls (mail) signs
 * with mail's test key instead of the key file its configuration names.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ImportAutoConfiguration({ PlatformAutoConfiguration.class, IdentityAutoConfiguration.class })
@Import(PlatformWeb.TestVerifier.class)
public @interface PlatformWeb {

	@TestConfiguration(proxyBeanMethods = false)
	class TestVerifier {

		@Bean
		IdentityVerifier perflabIdentityVerifier(Environment environment) {
			return TestIdentity.verifier(environment.getRequiredProperty("spring.application.name"), "gateway", "mail");
		}

		@Bean
		@ConditionalOnProperty("perflab.identity.signing-key")
		IdentitySigner perflabIdentitySigner() {
			return TestIdentity.mailSigner();
		}
	}
}
