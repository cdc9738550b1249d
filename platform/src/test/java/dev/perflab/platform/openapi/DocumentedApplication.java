package dev.perflab.platform.openapi;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;

/** A service of two operations, documented by the platform alone: nothing here names a problem. */
@SpringBootApplication
class DocumentedApplication {

	record Order(@NotNull Long customerNo, @NotNull List<Line> lines) {
	}

	record Line(String sku, int quantity) {
	}

	record Shelf(String name) {
	}

	@RestController
	static class Orders {

		@PostMapping(path = "/orders/{shop}", consumes = MediaType.APPLICATION_JSON_VALUE)
		@ResponseStatus(HttpStatus.CREATED)
		Order take(Caller caller, @PathVariable String shop, @Valid @RequestBody Order order) {
			return order;
		}

		/** public, no input: nothing to refuse but what the gateway and the service's health refuse */
		@GetMapping("/shelf")
		Shelf shelf() {
			return new Shelf("front");
		}
	}
}
