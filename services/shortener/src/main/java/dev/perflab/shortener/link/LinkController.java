package dev.perflab.shortener.link;

import java.net.URI;

import jakarta.validation.Valid;

import org.springframework.http.MediaType;
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
	ResponseEntity<LinkResponse> create(Caller caller, @Valid @RequestBody CreateLinkRequest request) {
		LinkResponse link = links.create(caller, request);
		return ResponseEntity.created(URI.create("/v1/short-links/" + link.code())).body(link);
	}

	@GetMapping("/{code}")
	LinkResponse describe(Caller caller, @PathVariable String code) {
		return links.describe(caller, code);
	}

	@DeleteMapping("/{code}")
	ResponseEntity<Void> delete(Caller caller, @PathVariable String code) throws InterruptedException {
		links.delete(caller, code);
		return ResponseEntity.noContent().build();
	}
}
