package dev.perflab.notifier.member;

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
	ResponseEntity<Member> signUp(Caller caller, @RequestBody SignUpRequest request) {
		String email = Fields.email("email", request.email());
		String name = Fields.text("name", request.name(), 50);
		String password = Fields.password("password", request.password());
		return ResponseEntity.status(HttpStatus.CREATED).body(members.signUp(caller, email, name, password));
	}
}
