package dev.perflab.mail.mail;

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

	@GetMapping("/v2/mails")
	Mails.MailPage list(Caller caller, @RequestParam MultiValueMap<String, String> params) {
		return mails.list(accounts.require(caller), ListQuery.parse(params, mails.maxPageSize()));
	}

	@GetMapping("/v2/mails/{no}")
	Mails.MailDetail read(Caller caller, @PathVariable String no) {
		return mails.read(accounts.require(caller), MailNumbers.parse(no));
	}
}
