package dev.perflab.platform.openapi;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The document a service serves states every answer a client can meet: the problems each operation can be refused
 * with (by what the operation takes: a caller, a path, a body), their {@code Problem} schema, and body fields under
 * the names and rules the service's JSON reads them with.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "spring.application.name=orders",
		"management.endpoint.health.group.readiness.include=readinessState",
		"spring.autoconfigure.exclude="
		+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
		+ "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration" })
class ProblemResponsesTest {

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void trust(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@Test
	void documentsEveryProblemAnOperationCanBeAnsweredWith() throws Exception {
		JsonNode responses = document().at("/paths/~1orders~1{shop}/post/responses");
		assertThat(responses.propertyNames()).containsExactlyInAnyOrder("201", "400", "401", "404", "406", "413",
				"415", "429", "500", "503", "504");
		for (String status : new String[] { "400", "401", "404", "406", "413", "415", "429", "500", "503", "504" }) {
			assertThat(responses.at("/" + status + "/content/application~1problem+json/schema/$ref").asString())
				.as(status).isEqualTo("#/components/schemas/Problem");
		}
		assertThat(responses.at("/503/headers/Retry-After").isMissingNode()).isFalse();
	}

	@Test
	void documentsNoRefusalAnOperationCannotMeet() throws Exception {
		JsonNode responses = document().at("/paths/~1shelf/get/responses");
		assertThat(responses.propertyNames()).containsExactlyInAnyOrder("200", "406", "429", "500", "503", "504");
		assertThat(document().at("/paths/~1shelf/get/security").isMissingNode()).isTrue();
	}

	@Test
	void describesAProblemAsRfc9457WithTheFieldsOfA400() throws Exception {
		JsonNode problem = document().at("/components/schemas/Problem");
		assertThat(problem.at("/properties").propertyNames()).containsExactlyInAnyOrder("type", "title", "status",
				"detail", "instance", "errors");
		assertThat(problem.at("/properties/errors/items/$ref").asString()).isEqualTo("#/components/schemas/FieldError");
		assertThat(document().at("/components/schemas/FieldError/required").toString()).contains("field", "message");
	}

	@Test
	void namesBodyFieldsAsTheWireDoesAndClosesTheBody() throws Exception {
		JsonNode schemas = document().at("/components/schemas");
		assertThat(schemas.at("/Order/properties").propertyNames()).containsExactlyInAnyOrder("customer_no", "lines");
		assertThat(schemas.at("/Order/additionalProperties").asBoolean(true)).isFalse();
		assertThat(schemas.at("/Line/additionalProperties").asBoolean(true)).isFalse();
	}

	private JsonNode document() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return JsonMapper.builder().build().readTree(response.body());
	}
}
