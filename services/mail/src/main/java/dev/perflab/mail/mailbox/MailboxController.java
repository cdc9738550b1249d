package dev.perflab.mail.mailbox;

import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.Accounts;
import dev.perflab.platform.Caller;

@RestController
class MailboxController {

	private final Accounts accounts;

	private final Mailboxes mailboxes;

	MailboxController(Accounts accounts, Mailboxes mailboxes) {
		this.accounts = accounts;
		this.mailboxes = mailboxes;
	}

	@GetMapping("/v2/mailboxes")
	Map<String, List<Mailboxes.MailboxView>> list(Caller caller) {
		return Map.of("mailboxes", mailboxes.list(accounts.require(caller)));
	}
}
