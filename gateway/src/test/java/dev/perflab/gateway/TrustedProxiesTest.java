package dev.perflab.gateway;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a cluster behind proxies the chart names in {@code PERFLAB_GATEWAY_TRUSTEDPROXIES}: the tests' client on
 * 127.0.0.1 stands for the Ingress controller. Behind it, the nearest {@code X-Forwarded-For} hop that is not a trusted
 * proxy is the client's rate-limit key; what the client wrote to the left of it is not believed, and an untrusted peer
 * is its own key whatever it forwards.
 */
@ContextConfiguration(initializers = InACluster.BehindTrustedProxies.class, inheritInitializers = false)
class TrustedProxiesTest extends ForwardedHeadersTest {

	@Autowired
	GatewayProperties properties;

	@Test
	void theChartsEnvironmentVariableBindsToTheTrustedProxies() {
		assertThat(CloudPlatform.getActive(environment)).isEqualTo(CloudPlatform.KUBERNETES);
		assertThat(properties.trustedProxies()).containsExactly("192.0.2.0/24", "127.0.0.1");
	}

	@Test
	void behindATrustedProxyEachForwardedClientHasItsOwnKey() {
		assertThat(redirects(from("127.0.0.1"), i -> "203.0.113." + i)).as("twenty clients, one request each")
			.containsOnly(302);
	}

	@Test
	void whatTheClientWroteLeftOfItsOwnHopIsNotBelieved() {
		assertThat(redirects(from("127.0.0.1"), i -> "198.51.100." + i + ", 203.0.113.50"))
			.as("one client behind the proxy, a new left-most entry each time").contains(429);
	}

	@Test
	void trustedHopsAreSkippedUpToTheClient() {
		assertThat(redirects(from("127.0.0.1"), i -> "203.0.113.60, 192.0.2." + i))
			.as("one client behind two trusted proxies, the inner one changing").contains(429);
		assertThat(redirects(from("127.0.0.1"), i -> "203.0.113." + (100 + i) + ", 192.0.2.7")).containsOnly(302);
	}

	@Test
	void anUntrustedPeerIsItsOwnKeyWhateverItForwards() {
		assertThat(redirects(from("127.0.0.14"), i -> "203.0.113." + (150 + i) + ", 127.0.0.1")).contains(429);
	}

	@Override
	@Test
	void xForwardedPrefixIsIgnored() {
		assertPrefixIgnored(from("127.0.0.1"));
	}

	@Test
	void anUnreadableHopEndsTheWalkAtTheLastTrustedOne() {
		// 192.0.2.8 is a trusted proxy, so every request lands in its bucket: the garbage names no client
		assertThat(redirects(from("127.0.0.1"), i -> "203.0.113." + (200 + i) + ", not-an-address-" + i + ", 192.0.2.8"))
			.contains(429);
	}
}
