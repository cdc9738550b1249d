package dev.perflab.mail.send;

import java.net.URI;
import java.util.Map;

import jakarta.validation.Valid;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.Accounts;
import dev.perflab.platform.Caller;

@RestController
class SendController {

	private final Accounts accounts;

	private final Sends sends;

	SendController(Accounts accounts, Sends sends) {
		this.accounts = accounts;
		this.sends = sends;
	}

	@PostMapping(path = "/v2/mails/send", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Map<String, Object>> send(Caller caller, @Valid @RequestBody SendRequest request) {
		Sends.Sent sent = sends.send(accounts.require(caller), request);
		return ResponseEntity.accepted().location(URI.create("/v2/mails/" + sent.mailNo()))
			.body(Map.of("mail_no", sent.mailNo(), "delivery_id", sent.deliveryId()));
	}
}
