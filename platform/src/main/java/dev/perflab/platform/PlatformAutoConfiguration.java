package dev.perflab.platform;

import java.util.List;

import io.micrometer.common.KeyValue;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;
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

	/**
	 * A JSON body's values are taken as the types they are written as: a text field refuses {@code false}, {@code 12}
	 * and {@code 1.5} (a 400 naming the field, never the text "false" stored), and a whole-number field takes
	 * {@code 1} and {@code 1.0} but refuses {@code 1.5} rather than cutting it to 1 ({@link WholeNumbers}). The
	 * OpenAPI documents state these types; a client that sends another is told so.
	 */
	@Bean
	JsonMapperBuilderCustomizer perflabValuesAsWritten() {
		return builder -> builder
			.withCoercionConfig(LogicalType.Textual, textual -> textual
				.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
			// an empty text is no time: "expiresAt": "" is refused, not read as no expiry
			.withCoercionConfig(LogicalType.DateTime, time -> time
				.setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
			.addModule(new WholeNumbers());
	}

	/**
	 * The {@code uri} of {@code http_server_requests} names a route's variables without the regex that narrows one:
	 * {@code /v2/mails/{no:(?!send$).+}} is {@code /v2/mails/{no}}, so the dashboards, alerts and SLOs keyed on the
	 * route stay its name whatever pattern matches it.
	 */
	@Bean
	DefaultServerRequestObservationConvention perflabUriWithoutRegex() {
		return new UriWithoutRegex();
	}

	static final class UriWithoutRegex extends DefaultServerRequestObservationConvention {

		private static final java.util.regex.Pattern VARIABLE_REGEX = java.util.regex.Pattern.compile("\\{(\\w+):[^}]*}");

		@Override
		protected KeyValue uri(ServerRequestObservationContext context) {
			KeyValue uri = super.uri(context);
			return KeyValue.of(uri.getKey(), VARIABLE_REGEX.matcher(uri.getValue()).replaceAll("{$1}"));
		}
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
