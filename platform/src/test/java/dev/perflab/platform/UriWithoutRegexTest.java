package dev.perflab.platform;

import io.micrometer.common.KeyValue;
import org.junit.jupiter.api.Test;

import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

class UriWithoutRegexTest {

	private static String uri(String pattern) {
		ServerRequestObservationContext context = new ServerRequestObservationContext(
				new MockHttpServletRequest("GET", "/anything"), new MockHttpServletResponse());
		context.setPathPattern(pattern);
		KeyValue uri = new PlatformAutoConfiguration.UriWithoutRegex().getLowCardinalityKeyValues(context).stream()
			.filter(kv -> kv.getKey().equals("uri"))
			.findFirst()
			.orElseThrow();
		return uri.getValue();
	}

	@Test
	void aRouteIsNamedByItsVariablesNotTheirRegex() {
		assertThat(uri("/v2/mails/{no:(?!send$).+}")).isEqualTo("/v2/mails/{no}");
		assertThat(uri("/v1/things/{a:[0-9]+}/parts/{b:\\w+}")).isEqualTo("/v1/things/{a}/parts/{b}");
		assertThat(uri("/v2/mails/{no}/eml")).isEqualTo("/v2/mails/{no}/eml");
	}
}
