package dev.perflab.route.dispatch;

import java.io.IOException;
import java.net.URI;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

@RestController
class RouteController {

	private final Routes routes;

	/** the converter {@code @RequestBody} would use, on the application's mapper: the same names, rules and 400s */
	private final JacksonJsonHttpMessageConverter json;

	RouteController(Routes routes, JsonMapper jsonMapper) {
		this.routes = routes;
		this.json = new JacksonJsonHttpMessageConverter(jsonMapper);
	}

	/**
	 * The body is read by hand, after the office's quota: as a {@code @RequestBody} it was parsed before the handler
	 * ran, up to 4 MB and 50,000 points of objects, only for an office with no points left to be refused.
	 */
	@PostMapping(path = "/v1/routes", consumes = MediaType.APPLICATION_JSON_VALUE)
	@io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
			content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
					schema = @Schema(implementation = CreateRouteRequest.class)))
	@ApiResponse(responseCode = "201", useReturnTypeSchema = true, description = "Created; Location names the route")
	@ApiResponse(responseCode = "413", description = "The body is larger than route accepts, or the route alone passes a day's point quota")
	@ApiResponse(responseCode = "429", description = "The office's point quota of the day is spent (Retry-After: the seconds "
			+ "until the UTC day ends), or the gateway's rate limit",
			headers = @io.swagger.v3.oas.annotations.headers.Header(name = "Retry-After", schema = @Schema(type = "string")))
	ResponseEntity<RouteResponse> create(Caller caller, HttpServletRequest body) throws IOException {
		routes.admit(caller.office());
		CreateRouteRequest request = read(body);
		long id = routes.create(caller.office(), caller.user(), request);
		return ResponseEntity.created(URI.create("/v1/routes/" + id)).body(routes.find(caller.office(), id).orElseThrow());
	}

	@GetMapping("/v1/routes/{id}")
	RouteResponse get(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable long id) {
		// another office's route answers exactly like a route that does not exist
		return routes.find(caller.office(), id).orElseThrow(() -> ProblemException.notFound("No route " + id));
	}

	private CreateRouteRequest read(HttpServletRequest body) throws IOException {
		ServletServerHttpRequest message = new ServletServerHttpRequest(body);
		if (json.read(CreateRouteRequest.class, message) instanceof CreateRouteRequest request) {
			return request;
		}
		throw new HttpMessageNotReadableException("Required request body is missing", message);
	}
}
