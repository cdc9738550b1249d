package dev.perflab.platform;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
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
