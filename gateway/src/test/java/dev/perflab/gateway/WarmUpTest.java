package dev.perflab.gateway;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up before readiness, with the services the other tests see: one answers (the shortener's and the route's
 * upstream), one refuses connections, one does not resolve and one accepts and never answers (the notifier). The hung
 * one is given up after the per-service timeout (1 s), so the warm-up sends its requests and ends on its own inside
 * its time limit (15 s); waiting on that one request (about 40 s here, until the connection is dropped) the time limit
 * cuts the warm-up short.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = { "perflab.gateway.warm-up.requests=200", "perflab.gateway.warm-up.time-limit=15s",
		"perflab.gateway.warm-up.service-timeout=1s", "logging.level.dev.perflab.gateway.web.WarmUp=INFO" })
class WarmUpTest extends GatewayTestSupport {

	@Test
	void aHungServiceDoesNotHoldTheWarmUpAndItsRequestsAreAnsweredBeforeReadiness(CapturedOutput output) {
		assertThat(output.getOut()).doesNotContain("warm-up cut short")
			.containsPattern("warm-up: [0-9]+ services, 200 of 200 requests answered in [0-9]+ ms");
		assertThat(send(request("/actuator/health/readiness").GET()).statusCode()).isNotEqualTo(200)
			.as("actuator is on the management port only");
		assertThat(send(java.net.http.HttpRequest.newBuilder(
				java.net.URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness"))).statusCode())
			.isEqualTo(200);
	}
}
