package dev.perflab.shortener.link;

import java.net.URI;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;

@RestController
@RequestMapping("/v1/short-links")
class LinkController {

	private final Links links;

	LinkController(Links links) {
		this.links = links;
	}

	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	@ApiResponse(responseCode = "201", description = "The link, stored",
			content = @Content(schema = @Schema(implementation = LinkResponse.class)))
	@ApiResponse(responseCode = "400", description = "Not an http(s) URL, a URL without a host or over 2,048 characters, "
			+ "malformed JSON, an unknown field, an expiresAt not in the future", content = @Content(
					mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, schema = @Schema(implementation = ProblemDetail.class)))
	@ApiResponse(responseCode = "401", description = "No caller verified", content = @Content(
			mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, schema = @Schema(implementation = ProblemDetail.class)))
	@ApiResponse(responseCode = "413", description = "A body over 16 KB, or a link larger than a whole day's byte quota "
			+ "(link-too-large)", content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
					schema = @Schema(implementation = ProblemDetail.class)))
	@ApiResponse(responseCode = "415", description = "A body that is not JSON", content = @Content(
			mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, schema = @Schema(implementation = ProblemDetail.class)))
	@ApiResponse(responseCode = "429", description = "link-quota: the link would pass its user's or office's quota of "
			+ "links or bytes per UTC day (perflab.shortener.quota); nothing is stored",
			headers = @Header(name = "Retry-After", description = "Seconds until the next midnight (UTC), when the quota frees",
					schema = @Schema(type = "integer")),
			content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE,
					schema = @Schema(implementation = ProblemDetail.class)))
	ResponseEntity<LinkResponse> create(Caller caller, @Valid @RequestBody CreateLinkRequest request) {
		LinkResponse link = links.create(caller, request);
		return ResponseEntity.created(URI.create("/v1/short-links/" + link.code())).body(link);
	}

	@GetMapping("/{code}")
	LinkResponse describe(Caller caller, @Parameter(description = "a link's code", schema = @Schema(type = "string", pattern = "^[0-9A-Za-z]{1,11}$")) @PathVariable String code) {
		return links.describe(caller, code);
	}

	@DeleteMapping("/{code}")
	@ApiResponse(responseCode = "204", description = "Deleted")
	ResponseEntity<Void> delete(Caller caller, @Parameter(description = "a link's code", schema = @Schema(type = "string", pattern = "^[0-9A-Za-z]{1,11}$")) @PathVariable String code) throws InterruptedException {
		links.delete(caller, code);
		return ResponseEntity.noContent().build();
	}
}
