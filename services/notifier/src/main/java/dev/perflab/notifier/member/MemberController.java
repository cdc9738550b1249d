package dev.perflab.notifier.member;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.notifier.Fields;
import dev.perflab.platform.Caller;

@RestController
class MemberController {

	private final Members members;

	MemberController(Members members) {
		this.members = members;
	}

	@PostMapping(path = "/v1/members", consumes = MediaType.APPLICATION_JSON_VALUE)
	@ApiResponse(responseCode = "201", useReturnTypeSchema = true, description = "Signed up")
	@ApiResponse(responseCode = "409", description = "A member with this email exists")
	@ApiResponse(responseCode = "429", description = "Too many sign-ups are hashing at once (retry shortly), the office's "
			+ "notification quota is spent, or the gateway's rate limit",
			headers = @io.swagger.v3.oas.annotations.headers.Header(name = "Retry-After", schema = @Schema(type = "string")))
	ResponseEntity<Member> signUp(Caller caller, @RequestBody SignUpRequest request) {
		String email = Fields.email("email", request.email());
		String name = Fields.text("name", request.name(), 50);
		String password = Fields.password("password", request.password());
		return ResponseEntity.status(HttpStatus.CREATED).body(members.signUp(caller, email, name, password));
	}
}
