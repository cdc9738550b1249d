package dev.perflab.platform;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;

import org.springframework.web.method.HandlerMethod;

/**
 * The answers every operation shares, documented from what the operation takes: each refusal is a {@code Problem}
 * (RFC 9457, {@code application/problem+json}) from {@link ProblemHandler}, {@link CallerArgumentResolver},
 * {@link BodySizeLimitFilter} or the gateway in front (its bearer check, rate limits, timeouts and unreachable
 * services). An operation that states a status itself ({@code @ApiResponse}) keeps its own description of it.
 */
final class ProblemResponses implements OperationCustomizer, OpenApiCustomizer {

	static final String PROBLEM = "Problem";

	static final String FIELD_ERROR = "FieldError";

	static final String BEARER = "bearer";

	private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

	private final boolean unknownFieldsRefused;

	/** @param unknownFieldsRefused the service's JSON refuses unknown fields: every request body is closed */
	ProblemResponses(boolean unknownFieldsRefused) {
		this.unknownFieldsRefused = unknownFieldsRefused;
	}

	@Override
	public Operation customize(Operation operation, HandlerMethod handler) {
		List<Parameter> parameters = operation.getParameters() == null ? List.of() : operation.getParameters();
		boolean body = operation.getRequestBody() != null;
		boolean user = takes(handler, Caller.class);
		boolean service = takes(handler, ServiceCaller.class);
		ApiResponses responses = operation.getResponses() == null ? new ApiResponses() : operation.getResponses();
		operation.setResponses(responses);
		if (body || !parameters.isEmpty()) {
			add(responses, "400", "The request does not fit this operation: a parameter or a body field is missing, "
					+ "malformed, out of range or unknown (a body's fields are named in errors), or the request line "
					+ "could not be read", null);
		}
		if (user || service) {
			operation.addSecurityItem(new SecurityRequirement().addList(BEARER));
			add(responses, "401", "No bearer token, or one that proves nothing (the gateway); or no verified caller",
					Map.of("WWW-Authenticate", header("Bearer realm=\"perflab\", when the gateway refused the token")));
		}
		if (service) {
			add(responses, "403", "This operation takes calls from other services only", null);
		}
		if (parameters.stream().anyMatch(p -> "path".equals(p.getIn()))) {
			add(responses, "404", "Nothing the caller may see is named by this path", null);
		}
		if (answersJson(responses)) {
			add(responses, "406", "The Accept header names no type this operation writes (application/json)", null);
		}
		if (body) {
			add(responses, "413", "The request body is larger than the service accepts", null);
			add(responses, "415", "The body is not sent as application/json", null);
		}
		add(responses, "429", "Too many requests from this caller or client address (the gateway's rate limits), or "
				+ "too many invalid tokens from this address",
				Map.of("Retry-After", header("Seconds to wait, when the wait is known")));
		add(responses, "500", "The service failed to answer; retry later", null);
		add(responses, "503", "A store the service needs, or the service itself, is unavailable: the request did not "
				+ "happen and may be sent again", Map.of("Retry-After", header("Seconds to wait before retrying")));
		add(responses, "504", "The service did not answer within the gateway's timeout", null);
		// a refusal an operation states itself (@ApiResponse(responseCode = "403", description = ...)) is a Problem too,
		// never the type its success is written as, nor another shape of a problem
		responses.forEach((status, response) -> {
			if (status.startsWith("4") || status.startsWith("5")) {
				response.setContent(problemContent());
			}
		});
		return operation;
	}

	@Override
	public void customise(OpenAPI openApi) {
		Components components = openApi.getComponents() == null ? new Components() : openApi.getComponents();
		openApi.setComponents(components);
		components.addSchemas(FIELD_ERROR, fieldError());
		components.addSchemas(PROBLEM, problem());
		if (openApi.getPaths() != null && openApi.getPaths().values().stream()
			.flatMap(path -> path.readOperations().stream())
			.anyMatch(operation -> operation.getSecurity() != null)) {
			components.addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
				.bearerFormat("JWT").description("A token of the identity provider, checked by the gateway"));
		}
		if (unknownFieldsRefused && openApi.getPaths() != null) {
			openApi.getPaths().values().stream()
				.flatMap(path -> path.readOperations().stream())
				.filter(operation -> operation.getRequestBody() != null && operation.getRequestBody().getContent() != null)
				.flatMap(operation -> operation.getRequestBody().getContent().values().stream())
				.forEach(media -> close(media.getSchema(), components));
		}
	}

	/** A body with a field the request does not have is refused: the schema says so, down to nested objects. */
	private static void close(Schema<?> schema, Components components) {
		if (schema == null) {
			return;
		}
		if (schema.get$ref() != null) {
			String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
			Schema<?> named = components.getSchemas() == null ? null : components.getSchemas().get(name);
			if (named != null && !Boolean.FALSE.equals(named.getAdditionalProperties())) {
				close(named, components);
			}
			return;
		}
		if (schema.getProperties() != null && schema.getAdditionalProperties() == null) {
			schema.setAdditionalProperties(Boolean.FALSE);
			schema.getProperties().forEach((name, property) -> {
				if (schema.getRequired() == null || !schema.getRequired().contains(name)) {
					nullable(property);
				}
				close(property, components);
			});
		}
		close(schema.getItems(), components);
		if (schema.getOneOf() != null) {
			schema.getOneOf().forEach(one -> close(one, components));
		}
		if (schema.getAllOf() != null) {
			schema.getAllOf().forEach(all -> close(all, components));
		}
	}

	/** An optional field may also be written as null, which the services read as the field left out. */
	private static void nullable(Schema<?> property) {
		if (property.get$ref() != null) {
			return;
		}
		java.util.Set<String> types = new java.util.LinkedHashSet<>();
		if (property.getTypes() != null) {
			types.addAll(property.getTypes());
		}
		else if (property.getType() != null) {
			types.add(property.getType());
		}
		if (!types.isEmpty() && types.add("null")) {
			property.setTypes(types);
		}
	}

	private static boolean takes(HandlerMethod handler, Class<?> type) {
		return Arrays.stream(handler.getMethodParameters()).anyMatch(p -> p.getParameterType() == type);
	}

	private static boolean answersJson(ApiResponses responses) {
		Predicate<String> json = type -> org.springframework.http.MediaType.parseMediaType(type)
			.isCompatibleWith(org.springframework.http.MediaType.APPLICATION_JSON);
		return responses.entrySet().stream()
			.filter(e -> e.getKey().startsWith("2") && e.getValue().getContent() != null)
			.anyMatch(e -> e.getValue().getContent().keySet().stream().anyMatch(json));
	}

	private static void add(ApiResponses responses, String status, String description, Map<String, Header> headers) {
		if (responses.containsKey(status)) {
			return;
		}
		ApiResponse response = new ApiResponse().description(description).content(problemContent());
		if (headers != null) {
			headers.forEach(response::addHeaderObject);
		}
		responses.addApiResponse(status, response);
	}

	private static Content problemContent() {
		return new Content().addMediaType(PROBLEM_JSON,
				new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM)));
	}

	private static Header header(String description) {
		return new Header().description(description).schema(new StringSchema());
	}

	private static Schema<?> problem() {
		Schema<?> problem = new ObjectSchema()
			.description("A problem detail (RFC 9457): type is stable, a client switches on it")
			.addProperty("type", new StringSchema().format("uri").description("https://perflab.dev/problems/<slug>"))
			.addProperty("title", new StringSchema())
			.addProperty("status", new IntegerSchema().minimum(java.math.BigDecimal.valueOf(100))
				.maximum(java.math.BigDecimal.valueOf(599)))
			.addProperty("detail", new StringSchema())
			.addProperty("instance", new StringSchema().description("the path the problem answered"))
			.addProperty("errors", new ArraySchema().items(new Schema<>().$ref("#/components/schemas/" + FIELD_ERROR))
				.description("a 400's fields, each by its name on the wire"));
		// a problem of type about:blank (Spring's own refusals) is written without it, as RFC 9457 allows
		problem.setRequired(List.of("title", "status"));
		return problem;
	}

	private static Schema<?> fieldError() {
		Schema<?> error = new ObjectSchema()
			.addProperty("field", new StringSchema().description("to[0], recipients[2].email, (body)"))
			.addProperty("message", new StringSchema());
		error.setRequired(List.of("field", "message"));
		return error;
	}
}
