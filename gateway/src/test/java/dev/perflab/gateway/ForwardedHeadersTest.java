package dev.perflab.gateway;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway as it runs in a cluster (Kubernetes detected from the environment), without trusted proxies: a
 * client's {@code X-Forwarded-For} does not change its per-address rate-limit key and {@code X-Forwarded-Prefix}
 * changes nothing. Each test sends from a loopback address of its own, so each has its own per-address bucket.
 */
@ContextConfiguration(initializers = InACluster.class)
@TestPropertySource(properties = { "perflab.gateway.rate-limit.per-ip.replenish-rate=1",
		"perflab.gateway.rate-limit.per-ip.burst-capacity=5", "perflab.gateway.warm-up.requests=0" })
class ForwardedHeadersTest extends GatewayTestSupport {

	@Autowired
	Environment environment;

	@BeforeEach
	void runsAsInACluster() {
		assertThat(CloudPlatform.getActive(environment)).isEqualTo(CloudPlatform.KUBERNETES);
	}

	@Test
	void aClientsXForwardedForDoesNotChangeItsRateLimitKey() {
		List<Integer> statuses = redirects(from("127.0.0.11"), i -> "198.51.100." + i);
		assertThat(statuses).as("one client, a new X-Forwarded-For each time: one bucket of 5").contains(429);
	}

	@Test
	void xForwardedPrefixIsIgnored() {
		assertPrefixIgnored(from("127.0.0.12"));
	}

	void assertPrefixIgnored(HttpClient client) {
		String code = code();
		// believed, the prefix made /s/<code> (public, no token) the path /v1/short-links/s/<code> of the API route
		HttpResponse<String> response = send(client, get("/s/" + code).header("X-Forwarded-Prefix", "/v1/short-links"));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(302);
		assertThat(response.headers().firstValue("Location")).hasValue("https://example.com/" + code);
		assertThat(UPSTREAM.hits(code)).isEqualTo(1);
		assertThat(UPSTREAM.hits("GET /v1/short-links/s/" + code)).isZero();
	}

	/** Twenty redirects that reach the shortener (not cached at the edge), the i-th with X-Forwarded-For forwarded(i). */
	List<Integer> redirects(HttpClient client, IntFunction<String> forwarded) {
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			String code = code();
			UPSTREAM.cacheControl.put(code, "no-store");
			statuses.add(send(client, get("/s/" + code).header("X-Forwarded-For", forwarded.apply(i))).statusCode());
		}
		return statuses;
	}
}
