package dev.perflab.notifier.event;

import java.net.URI;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.notifier.Fields;
import dev.perflab.notifier.Ids;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

@RestController
class EventController {

	private final Events events;

	EventController(Events events) {
		this.events = events;
	}

	@PostMapping(path = "/v1/events", consumes = MediaType.APPLICATION_JSON_VALUE)
	@ApiResponse(responseCode = "201", useReturnTypeSchema = true, description = "Created; Location names the event")
	ResponseEntity<QrEvent> create(Caller caller, @RequestBody CreateEventRequest request) {
		QrEvent event = events.create(caller.office(), caller.user(), Fields.text("title", request.title(), 200));
		return ResponseEntity.created(URI.create("/v1/events/" + event.id())).body(event);
	}

	@GetMapping("/v1/events/{eventId}")
	QrEvent get(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String eventId) {
		return events.find(caller.office(), Ids.parse(eventId, "event"))
			.orElseThrow(() -> ProblemException.notFound("No event " + eventId));
	}
}
