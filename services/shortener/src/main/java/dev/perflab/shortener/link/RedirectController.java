package dev.perflab.shortener.link;

import java.net.URI;

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
	ResponseEntity<Void> redirect(@PathVariable String code) {
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
