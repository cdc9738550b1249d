package dev.perflab.notifier.guestbook;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.notifier.Fields;
import dev.perflab.notifier.Ids;
import dev.perflab.notifier.NotifierProperties;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

@RestController
class GuestbookController {

	static final int MAX_MESSAGE = 500;

	private final Guestbook guestbook;

	private final int pageSize;

	GuestbookController(Guestbook guestbook, NotifierProperties properties) {
		this.guestbook = guestbook;
		this.pageSize = properties.pageSize();
	}

	@PostMapping(path = "/v1/events/{eventId}/guestbook", consumes = MediaType.APPLICATION_JSON_VALUE)
	@ApiResponse(responseCode = "201", useReturnTypeSchema = true, description = "Signed")
	@ApiResponse(responseCode = "429", description = "The office's or the phone's SMS quota is spent, or the gateway's rate limit",
			headers = @io.swagger.v3.oas.annotations.headers.Header(name = "Retry-After", schema = @Schema(type = "string")))
	ResponseEntity<Entry> sign(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String eventId,
			@RequestBody SignRequest request) {
		long event = Ids.parse(eventId, "event");
		String name = Fields.text("name", request.name(), 50);
		String phone = Fields.phone("phone", request.phone());
		String message = Fields.text("message", request.message(), MAX_MESSAGE);
		return ResponseEntity.status(HttpStatus.CREATED).body(guestbook.sign(caller, event, name, phone, message));
	}

	@GetMapping("/v1/events/{eventId}/guestbook")
	Page page(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String eventId,
			@Parameter(schema = @Schema(type = "integer", minimum = "0", maximum = "10000", defaultValue = "0"))
			@RequestParam(defaultValue = "0") String page) {
		int number;
		try {
			number = Integer.parseInt(page);
		}
		catch (NumberFormatException e) {
			throw ProblemException.badRequest("invalid-page", "page must be a number from 0");
		}
		return guestbook.page(caller.office(), Ids.parse(eventId, "event"), number, pageSize);
	}
}
