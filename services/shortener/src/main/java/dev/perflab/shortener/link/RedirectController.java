package dev.perflab.shortener.link;

import java.net.URI;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.shortener.link.RedirectCache.Target;

/** The public redirect. Its Cache-Control is the contract with the gateway's edge cache. */
@RestController
class RedirectController {

	private final Links links;

	RedirectController(Links links) {
		this.links = links;
	}

	@GetMapping("/s/{code}")
	@ApiResponse(responseCode = "302", description = "The link's URL, in Location",
			headers = @Header(name = "Location", required = true, schema = @Schema(type = "string", format = "uri")))
	@ApiResponse(responseCode = "301", description = "A permanent link's URL, in Location",
			headers = @Header(name = "Location", required = true, schema = @Schema(type = "string", format = "uri")))
	ResponseEntity<Void> redirect(@Parameter(description = "a link's code", schema = @Schema(type = "string", pattern = "^[0-9A-Za-z]{1,11}$")) @PathVariable String code) {
		Target target = links.resolve(code);
		long maxAge = links.edgeMaxAge(target);
		CacheControl cacheControl = maxAge >= 1 ? CacheControl.maxAge(java.time.Duration.ofSeconds(maxAge)).cachePublic()
				: CacheControl.noStore();
		return ResponseEntity.status(target.permanent() ? HttpStatus.MOVED_PERMANENTLY : HttpStatus.FOUND)
			.location(URI.create(target.url()))
			.cacheControl(cacheControl)
			.build();
	}
}
