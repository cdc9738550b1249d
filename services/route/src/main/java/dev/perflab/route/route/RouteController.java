package dev.perflab.route.route;

import java.net.URI;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

@RestController
class RouteController {

	private final Routes routes;

	RouteController(Routes routes) {
		this.routes = routes;
	}

	@PostMapping(path = "/v1/routes", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<RouteResponse> create(Caller caller, @RequestBody CreateRouteRequest request) {
		long id = routes.create(caller.office(), caller.user(), request);
		return ResponseEntity.created(URI.create("/v1/routes/" + id)).body(routes.find(caller.office(), id).orElseThrow());
	}

	@GetMapping("/v1/routes/{id}")
	RouteResponse get(Caller caller, @PathVariable long id) {
		// another office's route answers exactly like a route that does not exist
		return routes.find(caller.office(), id).orElseThrow(() -> ProblemException.notFound("No route " + id));
	}
}
