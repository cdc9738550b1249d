package dev.perflab.notifier.notification;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.notifier.Ids;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

@RestController
class NotificationController {

	private final NotificationStore store;

	NotificationController(NotificationStore store) {
		this.store = store;
	}

	@GetMapping("/v1/notifications/{id}")
	NotificationView get(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String id) {
		// another office's notification answers exactly like one that does not exist
		return store.find(caller.office(), Ids.parse(id, "notification"))
			.orElseThrow(() -> ProblemException.notFound("No notification " + id));
	}
}
