package dev.perflab.platform;

import java.util.List;

import org.apache.coyote.http11.AbstractHttp11Protocol;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.util.unit.DataSize;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.perflab.identity.IdentityVerifier;

/** The web defaults every perflab servlet service shares. */
@AutoConfiguration
public class PlatformAutoConfiguration {

	@Bean
	ProblemHandler perflabProblemHandler(ObjectProvider<JsonMapper> json) {
		JsonMapper mapper = json.getIfAvailable();
		return new ProblemHandler(mapper == null ? null : mapper.deserializationConfig().getPropertyNamingStrategy());
	}

	/** perflab_lab_switch_info of the service's properties record, when it has lab switches */
	@Bean
	io.micrometer.core.instrument.binder.MeterBinder perflabLabSwitchMetrics(ObjectProvider<LabSwitches> switches) {
		return registry -> switches.orderedStream().forEach(source -> LabSwitches.metrics(source).bindTo(registry));
	}

	@Bean
	FilterRegistrationBean<RequestIdFilter> perflabRequestIdFilter() {
		FilterRegistrationBean<RequestIdFilter> registration = new FilterRegistrationBean<>(new RequestIdFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	@Bean
	FilterRegistrationBean<BodySizeLimitFilter> perflabBodySizeLimitFilter(
			@Value("${perflab.http.max-body-size:16KB}") DataSize limit) {
		FilterRegistrationBean<BodySizeLimitFilter> registration = new FilterRegistrationBean<>(
				new BodySizeLimitFilter(limit.toBytes()));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
		return registration;
	}

	/**
	 * A body refused by its Content-Length is still read to its end, up to four times the limit (at least Tomcat's
	 * 2 MB), before Tomcat closes the connection (it always does after a 413). Closed with unread body bytes, the
	 * kernel answers the sender's next write with a reset, and a proxy still sending the body (the gateway) can lose
	 * the 413 already in its receive buffer: its caller got a 503 instead.
	 */
	@Bean
	SwallowRefusedBodies perflabSwallowRefusedBodies(@Value("${perflab.http.max-body-size:16KB}") DataSize limit) {
		return new SwallowRefusedBodies(
				(int) Math.min(Integer.MAX_VALUE, Math.max(DataSize.ofMegabytes(2).toBytes(), 4 * limit.toBytes())));
	}

	/**
	 * Ordered after Spring Boot's own Tomcat customizer, whose connector customizer sets
	 * {@code server.tomcat.max-swallow-size} (2 MB): this one's runs after it.
	 */
	record SwallowRefusedBodies(int bytes) implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

		@Override
		public void customize(ConfigurableTomcatWebServerFactory factory) {
			factory.addConnectorCustomizers(connector -> {
				if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
					http.setMaxSwallowSize(bytes);
				}
			});
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}
	}

	/** Services' calls bound to their requests: the body each token was signed for (a ControllerAdvice bean). */
	@Bean
	BoundRequests perflabBoundRequests() {
		return new BoundRequests();
	}

	@Bean
	WebMvcConfigurer perflabCallerResolver(ObjectProvider<IdentityVerifier> verifier) {
		return new WebMvcConfigurer() {
			@Override
			public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
				resolvers.add(new CallerArgumentResolver(verifier));
			}
		};
	}
}
