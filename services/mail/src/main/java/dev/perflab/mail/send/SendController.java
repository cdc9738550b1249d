package dev.perflab.mail.send;

import java.net.URI;
import java.util.Map;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

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
	@ApiResponse(responseCode = "202", description = "Stored and queued for send; Location names the mail",
			headers = @io.swagger.v3.oas.annotations.headers.Header(name = "Location", schema = @Schema(type = "string")),
			content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = Accepted.class)))
	@ApiResponse(responseCode = "403", description = "sender_no is not the caller's account, or the caller has no mail account")
	@ApiResponse(responseCode = "413", description = "The body, or the mail composed from it, is larger than mail accepts")
	@ApiResponse(responseCode = "429", description = "The caller's or the office's recipient or storage quota is spent, or "
			+ "the gateway's rate limit", headers = @io.swagger.v3.oas.annotations.headers.Header(name = "Retry-After",
					schema = @Schema(type = "string")))
	ResponseEntity<Map<String, Object>> send(Caller caller, @Valid @RequestBody SendRequest request) {
		Sends.Sent sent = sends.send(accounts.require(caller), request);
		return ResponseEntity.accepted().location(URI.create("/v2/mails/" + sent.mailNo()))
			.body(Map.of("mail_no", sent.mailNo(), "delivery_id", sent.deliveryId()));
	}

	/** the answer's shape, for the document: the body is written as a map */
	@Schema(name = "SendAccepted", requiredProperties = { "mail_no", "delivery_id" })
	record Accepted(long mailNo, String deliveryId) {
	}
}
