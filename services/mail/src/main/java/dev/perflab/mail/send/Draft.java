package dev.perflab.mail.send;

import java.util.List;
import java.util.Set;

import jakarta.mail.internet.InternetAddress;

import dev.perflab.mail.Accounts.Account;

/** A checked send request whose EML is already on disk: what a hand-off commits. */
record Draft(Account account, SendRequest request, String emlPath, long size, List<InternetAddress> to,
		List<InternetAddress> cc, List<InternetAddress> bcc, Set<String> recipients) {
}
