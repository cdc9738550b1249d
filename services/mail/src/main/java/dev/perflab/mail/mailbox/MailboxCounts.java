package dev.perflab.mail.mailbox;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code mailbox_count} in step with {@code mail_content}. Every mail write calls it inside its own
 * transaction, so the counts are never ahead of or behind the rows they count.
 */
@Component
public class MailboxCounts {

	private final JdbcClient jdbc;

	MailboxCounts(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/** One visible mail added to a mailbox; call inside the transaction that inserts it. */
	public void added(long office, long user, long mailbox, boolean read) {
		jdbc.sql("""
				INSERT INTO mailbox_count (office_no, user_no, mbox_no, total, unread) VALUES (?, ?, ?, 1, ?)
				ON DUPLICATE KEY UPDATE total = total + 1, unread = unread + VALUES(unread)""")
			.params(office, user, mailbox, read ? 0 : 1)
			.update();
	}

	/** Recounts everything from the mails themselves (after a bulk load). */
	public void rebuild() {
		jdbc.sql("DELETE FROM mailbox_count").update();
		jdbc.sql("""
				INSERT INTO mailbox_count (office_no, user_no, mbox_no, total, unread)
				SELECT office_no, user_no, mbox_no, COUNT(*), SUM(CASE WHEN is_read THEN 0 ELSE 1 END)
				FROM mail_content WHERE del_flag = 'N' GROUP BY office_no, user_no, mbox_no""").update();
	}
}
