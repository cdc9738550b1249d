package dev.perflab.mail.send;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.mail.internet.InternetAddress;

import dev.perflab.mail.Accounts.Account;

/**
 * A checked send request whose EML is already on disk: what a hand-off commits. {@code deliveryId} names the
 * hand-off to send (never repeats, unlike the mail number); {@code receiptKeys} gives each recipient their own
 * read-receipt key (empty without read receipts).
 */
record Draft(Account account, SendRequest request, String emlPath, long size, List<InternetAddress> to,
		List<InternetAddress> cc, List<InternetAddress> bcc, Set<String> recipients, String deliveryId,
		Map<String, String> receiptKeys) {
}
