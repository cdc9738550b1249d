package dev.perflab.gateway;

import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind an Ingress every request arrives from the controller's pod (here 127.0.0.53, the only trusted proxy), each
 * client named by the address the controller appends to {@code X-Forwarded-For}. The per-address limits are the
 * clients', not the proxy's: one client that spends its redirect limit or its failed-token budget throttles nobody
 * else behind the same proxy (keyed on the peer, one client's flood or bad tokens refused everyone).
 */
@ContextConfiguration(initializers = BehindAnIngressTest.IngressPod.class, inheritInitializers = false)
@TestPropertySource(properties = { "perflab.gateway.rate-limit.per-ip.replenish-rate=1",
		"perflab.gateway.rate-limit.per-ip.burst-capacity=5", "perflab.gateway.rate-limit.failed-tokens.burst-capacity=5",
		"perflab.gateway.rate-limit.failed-tokens.replenish-rate=0.05", "perflab.gateway.warm-up.requests=0" })
class BehindAnIngressTest extends GatewayTestSupport {

	static final String PROXY = "127.0.0.53";

	final HttpClient ingress = from(PROXY);

	@Test
	void aClientThatSpentItsRedirectLimitDoesNotThrottleAnotherOne() {
		assertThat(redirects("203.0.113.10", 20)).as("client A, twenty redirects against a bucket of 5").contains(429);
		assertThat(redirects("203.0.113.11", 5)).as("client B through the same proxy, within its own bucket")
			.containsOnly(302);
	}

	@Test
	void aClientThatSpentItsFailedTokenBudgetDoesNotThrottleAnotherOne() {
		String forged = Tokens.token(Tokens.OTHER_KEYS.getPrivate(), claims -> claims.subject(user()));
		for (int i = 0; i < 5; i++) {
			assertThat(status("203.0.113.20", forged)).as("client A's forged token %d", i).isEqualTo(401);
		}
		assertThat(status("203.0.113.20", forged)).as("client A, its budget spent").isEqualTo(429);
		assertThat(status("203.0.113.21", forged)).as("client B's token is still looked at").isEqualTo(401);
	}

	@Test
	void aFreshValidTokenIsServedAfterAnotherClientSpentTheFailedTokenBudget() {
		String forged = Tokens.token(Tokens.OTHER_KEYS.getPrivate(), claims -> claims.subject(user()));
		for (int i = 0; i < 6; i++) {
			status("203.0.113.30", forged);
		}
		assertThat(status("203.0.113.30", forged)).as("client A, its budget spent").isEqualTo(429);
		// never presented before, so not known valid: it is verified only while its client has budget left
		assertThat(status("203.0.113.31", Tokens.valid(user(), "1"))).as("client B's fresh valid token").isEqualTo(200);
	}

	/** Redirects that reach the shortener (not cached at the edge), through the proxy for {@code client}. */
	private List<Integer> redirects(String client, int count) {
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			String code = code();
			UPSTREAM.cacheControl.put(code, "no-store");
			statuses.add(send(ingress, get("/s/" + code).header("X-Forwarded-For", client)).statusCode());
		}
		return statuses;
	}

	private int status(String client, String token) {
		return send(ingress, get("/v1/short-links/ingress").header("X-Forwarded-For", client)
			.header("Authorization", "Bearer " + token)).statusCode();
	}

	/** The chart's setting with the Ingress controller's pod as the one trusted proxy. */
	static class IngressPod extends InACluster {

		@Override
		Map<String, String> chartVariables() {
			return Map.of("PERFLAB_GATEWAY_TRUSTEDPROXIES", PROXY);
		}
	}
}
