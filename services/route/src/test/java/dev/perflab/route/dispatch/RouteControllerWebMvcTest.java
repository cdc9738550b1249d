package dev.perflab.route.dispatch;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import dev.perflab.identity.Identity;
import dev.perflab.platform.PlatformWeb;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static dev.perflab.platform.ProblemMatchers.problem;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willThrow;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Dispatch's contract: 201 with Location, the office's quota asked before the body is read, the body's 400s. */
@WebMvcTest(RouteController.class)
@PlatformWeb
class RouteControllerWebMvcTest {

	static final String ROUTE = "{\"name\":\"Line 7\",\"bus\":\"B-7\",\"points\":[{\"lat\":37.5,\"lng\":127.0},"
			+ "{\"lat\":37.51,\"lng\":127.01}]}";

	static final RouteResponse RESPONSE = new RouteResponse(12, "Line 7", "B-7", 1, 2, List.of(), "alice",
			Instant.parse("2026-01-01T00:00:00Z"));

	@Autowired
	MockMvc mvc;

	@MockitoBean
	Routes routes;

	@Test
	void answersTheCreatedRouteWithItsLocation() throws Exception {
		given(routes.create(anyString(), anyString(), any())).willReturn(12L);
		given(routes.find("1", 12)).willReturn(Optional.of(RESPONSE));
		create(ROUTE).andExpect(status().isCreated())
			.andExpect(header().string("Location", "/v1/routes/12"))
			.andExpect(jsonPath("$.point_count").value(2))
			.andExpect(jsonPath("$.created_by").value("alice"));
		verify(routes).admit("1");
		verify(routes).create("1", "alice", new CreateRouteRequest("Line 7", "B-7", null,
				List.of(new CreateRouteRequest.PointInput(null, 37.5, 127.0),
						new CreateRouteRequest.PointInput(null, 37.51, 127.01))));
	}

	@Test
	void anOfficeAtItsQuotaIsRefusedBeforeItsBodyIsRead() throws Exception {
		willThrow(new ProblemException(HttpStatus.TOO_MANY_REQUESTS, "point-quota", "spent")).given(routes).admit("1");
		create("{\"name\":").andExpect(problem(429, "point-quota"));
		verify(routes, never()).create(anyString(), anyString(), any());
	}

	@Test
	void refusesBodiesThatAreNoRouteWithProblemDetails() throws Exception {
		create("{\"name\":\"x\",\"points\":[],\"color\":\"red\"}").andExpect(problem(400, "unknown-field"))
			.andExpect(jsonPath("$.errors[0].field").value("color"));
		create("{\"name\":").andExpect(problem(400, "malformed-body"));
		create("").andExpect(problem(400, "malformed-body"));
		create("{\"name\":\"x\",\"points\":[{\"lat\":\"north\",\"lng\":1}]}").andExpect(problem(400, "invalid-field"))
			.andExpect(jsonPath("$.errors[0].field").value("points[0].lat"));
		create("{\"name\":\"x\",\"points\":[{\"seq\":1.5,\"lat\":1,\"lng\":1}]}").andExpect(problem(400, "invalid-field"));
		create("{\"name\":12,\"points\":[]}").andExpect(problem(400, "invalid-field"));
		mvc.perform(post("/v1/routes").header(Identity.HEADER, TestIdentity.user("alice", "1", "route"))
			.contentType(MediaType.TEXT_PLAIN).content(ROUTE)).andExpect(problem(415, "unsupported-media-type"));
		verify(routes, never()).create(anyString(), anyString(), any());
	}

	@Test
	void refusesACallerTheGatewayDidNotVouchFor() throws Exception {
		mvc.perform(post("/v1/routes").contentType(MediaType.APPLICATION_JSON).content(ROUTE))
			.andExpect(problem(401, "unauthenticated"));
		mvc.perform(get("/v1/routes/12")).andExpect(problem(401, "unauthenticated"));
		verifyNoInteractions(routes);
	}

	@Test
	void readsTheOfficesRouteAnd404sAnyOther() throws Exception {
		given(routes.find("1", 12)).willReturn(Optional.of(RESPONSE));
		given(routes.find("2", 12)).willReturn(Optional.empty());
		mvc.perform(get("/v1/routes/12").header(Identity.HEADER, TestIdentity.user("alice", "1", "route")))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.name").value("Line 7"));
		mvc.perform(get("/v1/routes/12").header(Identity.HEADER, TestIdentity.user("alice", "2", "route")))
			.andExpect(problem(404, "not-found"));
		mvc.perform(get("/v1/routes/abc").header(Identity.HEADER, TestIdentity.user("alice", "1", "route")))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.status").value(400));
	}

	private ResultActions create(String body) throws Exception {
		return mvc.perform(post("/v1/routes").header(Identity.HEADER, TestIdentity.user("alice", "1", "route"))
			.contentType(MediaType.APPLICATION_JSON)
			.content(body));
	}
}
