package dev.perflab.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read retry's lab switch at {@code none}: the read that {@link GatewayTest} sees answered on its second attempt
 * (the service closes the first connection before any answer, as a pod going away does) reaches the caller as the
 * 503 problem, asked once; the scale-in proof without its mechanism (scripts/test/test-node.sh) runs the gateway so.
 */
@TestPropertySource(properties = "perflab.gateway.read-retry=none")
class ReadRetrySwitchTest extends GatewayTestSupport {

	@Test
	void withoutTheRetryAReadWhoseConnectionClosesBeforeAnyAnswerFailsOnce() throws Exception {
		String code = "close-once-" + UUID.randomUUID();
		HttpResponse<String> read = send(
				get("/v1/short-links/" + code).header("Authorization", "Bearer " + Tokens.valid(user(), "1")));
		assertThat(read.statusCode()).isEqualTo(503);
		assertThat(read.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(UPSTREAM.hits("GET v1/short-links/" + code)).as("asked once").isEqualTo(1);
		HttpResponse<String> scrape = CLIENT.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(scrape.body()).containsPattern("perflab_lab_switch_info\\{[^}]*switch=\"read-retry\",value=\"none\"\\} 1");
	}
}
