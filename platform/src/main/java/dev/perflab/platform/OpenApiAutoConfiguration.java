package dev.perflab.platform;

import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.utils.SpringDocUtils;

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
 * ({@code /v3/api-docs/<service>}) and the paths are the same on both.
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
}
