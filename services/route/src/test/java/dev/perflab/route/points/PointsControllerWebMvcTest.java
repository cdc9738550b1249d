package dev.perflab.route.points;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.TestIdentity;
import dev.perflab.route.RouteProperties;
import dev.perflab.route.dispatch.Routes;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willAnswer;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The points' contract: the format chosen before the first byte (406 otherwise), gzip only when accepted, an ETag per
 * version and representation and 304 for it, the caching headers, 404 for a route the office does not have.
 */
@WebMvcTest(PointsController.class)
@PlatformWeb
@EnableConfigurationProperties(RouteProperties.class)
class PointsControllerWebMvcTest {

	static final String PATH = "/v1/routes/5/points";

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Routes routes;

	@MockitoBean
	PointsFetch fetch;

	@BeforeEach
	void aRouteOfThreePoints() throws IOException {
		given(routes.ref("1", 5)).willReturn(Optional.of(new Routes.Ref(5, 2, 3)));
		given(routes.ref("2", 5)).willReturn(Optional.empty());
		willAnswer(invocation -> {
			PointSink sink = invocation.getArgument(1);
			sink.point(0, 37.5, 127.0);
			sink.point(1, 37.51, 127.01);
			sink.point(2, 37.52, 127.02);
			return null;
		}).given(fetch).points(anyLong(), any());
	}

	@Test
	void writesJsonByDefaultWithItsValidators() throws Exception {
		read(PATH).andExpect(status().isOk())
			.andExpect(content().contentTypeCompatibleWith("application/json"))
			.andExpect(header().string("ETag", "\"5-2-json\""))
			.andExpect(header().string("Cache-Control", "private, max-age=3600, immutable"))
			.andExpect(header().string("Vary", "Accept, Accept-Encoding"))
			.andExpect(header().exists("Surrogate-Control"))
			.andExpect(header().doesNotExist("Content-Encoding"))
			.andExpect(content().string(org.hamcrest.Matchers.containsString("37.52")));
	}

	@Test
	void theFormatParameterWinsOverAccept() throws Exception {
		read(PATH + "?format=NDJSON", "Accept", "application/json")
			.andExpect(content().contentTypeCompatibleWith("application/x-ndjson"))
			.andExpect(header().string("ETag", "\"5-2-ndjson\""));
		read(PATH, "Accept", "application/vnd.perflab.polyline")
			.andExpect(content().contentTypeCompatibleWith("application/vnd.perflab.polyline"));
	}

	@Test
	void refusesAFormatItCannotWriteWith406() throws Exception {
		read(PATH, "Accept", "application/xml").andExpect(problem(406, "not-acceptable"))
			.andExpect(header().doesNotExist("ETag"));
		read(PATH + "?format=xml").andExpect(problem(406, "not-acceptable"));
		verifyNoInteractions(fetch);
	}

	@Test
	void gzipsWhenAcceptedAndOnlyThen() throws Exception {
		byte[] plain = read(PATH).andReturn().getResponse().getContentAsByteArray();
		MvcResult gzipped = read(PATH, "Accept-Encoding", "br, gzip")
			.andExpect(header().string("Content-Encoding", "gzip"))
			.andExpect(header().string("ETag", "\"5-2-json-gz\""))
			.andReturn();
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.getResponse().getContentAsByteArray()))) {
			assertThat(in.readAllBytes()).isEqualTo(plain);
		}
		read(PATH, "Accept-Encoding", "gzip;q=0").andExpect(header().doesNotExist("Content-Encoding"));
	}

	@Test
	void answersNotModifiedForTheVersionTheClientHas() throws Exception {
		read(PATH, "If-None-Match", "W/\"5-2-json\"").andExpect(status().isNotModified())
			.andExpect(header().string("ETag", "\"5-2-json\""))
			.andExpect(content().bytes(new byte[0]));
		read(PATH + "?format=polyline", "If-None-Match", "\"5-2-json\"").andExpect(status().isOk())
			.andExpect(header().string("ETag", "\"5-2-polyline\""));
	}

	@Test
	void anotherOfficesRouteAndABadIdAreProblems() throws Exception {
		mvc.perform(get(PATH).header(Identity.HEADER, TestIdentity.user("alice", "2", "route")))
			.andExpect(problem(404, "not-found"))
			.andExpect(header().doesNotExist("ETag"));
		read("/v1/routes/abc/points").andExpect(status().isBadRequest())
			.andExpect(content().contentTypeCompatibleWith("application/problem+json"));
		mvc.perform(get(PATH)).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(fetch);
	}

	private ResultActions read(String path, String... headers) throws Exception {
		var request = get(path).header(Identity.HEADER, TestIdentity.user("alice", "1", "route"));
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return mvc.perform(request);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Metrics {

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}
	}
}
