package dev.perflab.platform;

import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.properties.SpringDocConfigProperties;
import org.springdoc.core.utils.SpringDocUtils;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.PropertyNamingStrategy;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The service's OpenAPI document (springdoc, {@code GET /v3/api-docs} on the API port): public documentation, read
 * without a caller. Nothing else is opened by it: springdoc's controller takes no {@link Caller}, and every other
 * handler still does. A caller is no request parameter (it comes from the identity token only), so the document
 * lists none; and it names the server as {@code /}, because it is read directly or through the gateway
 * ({@code /v3/api-docs/<service>}) and the paths are the same on both. Its schemas name fields as the service's JSON
 * does ({@code sender_no}), and every operation lists the problems it can be answered with ({@link ProblemResponses}):
 * a client generated from the document meets no status and no field name the document does not state.
 */
@AutoConfiguration
@ConditionalOnClass(SpringDocUtils.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class OpenApiAutoConfiguration {

	public OpenApiAutoConfiguration() {
		SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class, ServiceCaller.class);
	}

	@Bean
	@ConditionalOnMissingBean
	OpenAPI perflabOpenApi(Environment environment) {
		String name = environment.getProperty("spring.application.name", "perflab");
		String version = OpenApiAutoConfiguration.class.getPackage().getImplementationVersion();
		return new OpenAPI().info(new Info().title(name).version(version == null ? "dev" : version))
			.servers(List.of(new Server().url("/")));
	}

	@Bean
	ProblemResponses perflabProblemResponses(ObjectProvider<JsonMapper> json) {
		JsonMapper mapper = json.getIfAvailable();
		return new ProblemResponses(
				mapper != null && mapper.deserializationConfig().isEnabled(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));
	}

	/**
	 * springdoc reads types with swagger-core's own (Jackson 2) mapper, which knows nothing of
	 * {@code spring.jackson.property-naming-strategy}: the document said {@code senderNo} where the service reads
	 * {@code sender_no}. This resolver names properties with the service's strategy.
	 */
	@Bean
	ModelResolver perflabModelResolver(ObjectProvider<JsonMapper> json, SpringDocConfigProperties springDoc) {
		ObjectMapper mapper = (springDoc.isOpenapi31() ? Json31.mapper() : Json.mapper()).copy();
		JsonMapper service = json.getIfAvailable();
		PropertyNamingStrategy naming = service == null ? null : service.deserializationConfig().getPropertyNamingStrategy();
		if (naming instanceof PropertyNamingStrategies.NamingBase base) {
			mapper.setPropertyNamingStrategy(new com.fasterxml.jackson.databind.PropertyNamingStrategies.NamingBase() {
				@Override
				public String translate(String name) {
					return base.nameForField(null, null, name);
				}
			});
		}
		return new ModelResolver(mapper).openapi31(springDoc.isOpenapi31());
	}
}
