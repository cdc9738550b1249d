package dev.perflab.mail.message;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.Explode;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.Accounts;
import dev.perflab.platform.Caller;

@RestController
class MailController {

	private final Accounts accounts;

	private final Mails mails;

	MailController(Accounts accounts, Mails mails) {
		this.accounts = accounts;
		this.mails = mails;
	}

	/** the query is read whole by {@link ListQuery} (an unknown parameter is refused): each one is stated here */
	@GetMapping("/v2/mails")
	@Parameter(name = "page", in = ParameterIn.QUERY, description = "1 and up; page x size reaches the first "
			+ ListQuery.MAX_ROWS + " mails at most", schema = @Schema(type = "integer", minimum = "1", maximum = "500",
					defaultValue = "1"))
	@Parameter(name = "size", in = ParameterIn.QUERY, description = "mails per page, up to perflab.mail.max-page-size",
			schema = @Schema(type = "integer", minimum = "1", maximum = "100", defaultValue = "20"))
	@Parameter(name = "mailbox", in = ParameterIn.QUERY, description = "only this mailbox's mails",
			schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807"))
	@Parameter(name = "sort[received_date]", in = ParameterIn.QUERY,
			schema = @Schema(type = "string", allowableValues = { "asc", "desc" }, defaultValue = "desc"))
	@Parameter(name = "with", in = ParameterIn.QUERY, explode = Explode.TRUE, description = "only mails with each of these",
			array = @ArraySchema(schema = @Schema(type = "string",
					allowableValues = { "approval_mail", "receipt_confirm", "encrypted" })))
	@ApiResponse(responseCode = "200", useReturnTypeSchema = true, description = "OK")
	@ApiResponse(responseCode = "403", description = "The caller's office is not a mail office, or the caller has no mail account")
	@ApiResponse(responseCode = "404", description = "The caller has no mailbox of that number")
	Mails.MailPage list(Caller caller, @Parameter(hidden = true) @RequestParam MultiValueMap<String, String> params) {
		return mails.list(accounts.require(caller), ListQuery.parse(params, mails.maxPageSize()));
	}

	/**
	 * {@code send} is no mail number: {@code /v2/mails/send} takes POST only, and says so (405, Allow: POST). The
	 * metrics name this route {@code /v2/mails/{no}} all the same (platform's uri without the variable's regex).
	 */
	@GetMapping("/v2/mails/{no:(?!send$).+}")
	@ApiResponse(responseCode = "200", useReturnTypeSchema = true, description = "OK")
	@ApiResponse(responseCode = "403", description = "The caller's office is not a mail office, or the caller has no mail account")
	Mails.MailDetail read(Caller caller, @Parameter(description = "the mail number", schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String no) {
		return mails.read(accounts.require(caller), MailNumbers.parse(no));
	}
}
