package dev.perflab.mail.mailbox;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.platform.ProblemException;

/** The system mailboxes every account has, and the account's personal ones, with their counts. */
@Service
public class Mailboxes {

	public static final long INBOX = 1;

	public static final long SENT = 2;

	public static final long TRASH = 3;

	private static final Map<Long, String> SYSTEM = Map.of(INBOX, "Inbox", SENT, "Sent", TRASH, "Trash");

	/** A personal mailbox whose lock type is A or B hides its mails (seed 000). */
	public static final String LOCKED_TYPES = "('A','B')";

	private final JdbcClient jdbc;

	Mailboxes(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	List<MailboxView> list(Account account) {
		Map<Long, long[]> counts = new HashMap<>();
		jdbc.sql("SELECT mbox_no, total, unread FROM mailbox_count WHERE office_no = ? AND user_no = ?")
			.params(account.office(), account.user())
			.query(rs -> {
				counts.put(rs.getLong("mbox_no"), new long[] { rs.getLong("total"), rs.getLong("unread") });
			});
		List<MailboxView> out = new ArrayList<>();
		for (long no : List.of(INBOX, SENT, TRASH)) {
			long[] c = counts.getOrDefault(no, new long[2]);
			out.add(new MailboxView(no, SYSTEM.get(no), "system", false, c[1], c[0]));
		}
		jdbc.sql("SELECT no, name, lockinfo_type FROM personal_mailbox WHERE office_no = ? AND user_no = ? ORDER BY no")
			.params(account.office(), account.user())
			.query(rs -> {
				long no = rs.getLong("no");
				boolean locked = "AB".contains(rs.getString("lockinfo_type"));
				long[] c = counts.getOrDefault(no, new long[2]);
				// a locked mailbox shows that it exists, not what it holds
				out.add(new MailboxView(no, rs.getString("name"), "personal", locked, locked ? 0 : c[1], locked ? 0 : c[0]));
			});
		return out;
	}

	/** The mailbox number if it is one of the account's readable mailboxes; 404 otherwise. */
	public long requireReadable(Account account, long mailbox) {
		if (SYSTEM.containsKey(mailbox)) {
			return mailbox;
		}
		boolean readable = jdbc.sql("""
				SELECT COUNT(*) FROM personal_mailbox
				WHERE no = ? AND office_no = ? AND user_no = ? AND lockinfo_type NOT IN """ + LOCKED_TYPES)
			.params(mailbox, account.office(), account.user())
			.query(Long.class)
			.single() > 0;
		if (!readable) {
			throw ProblemException.notFound("No mailbox " + mailbox);
		}
		return mailbox;
	}

	record MailboxView(long no, String name, String kind, boolean locked, long unread, long total) {
	}
}
