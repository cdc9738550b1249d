package dev.perflab.mail.message;

import dev.perflab.mail.Accounts.Account;

/** How the list's total is counted: the lab switch {@code perflab.mail.list-count}. */
interface MailCounter {

	long count(Account account, Long mailbox);
}
