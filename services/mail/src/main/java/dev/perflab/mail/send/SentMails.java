package dev.perflab.mail.send;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import jakarta.mail.internet.InternetAddress;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Component;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.mailbox.MailboxCounts;
import dev.perflab.mail.mailbox.Mailboxes;

/** The rows of a sent mail. Each method runs in whatever transaction its caller opened. */
@Component
class SentMails {

	private final JdbcClient jdbc;

	private final JsonMapper json;

	private final MailboxCounts counts;

	private final RelayTraces traces;

	SentMails(JdbcClient jdbc, JsonMapper json, MailboxCounts counts, RelayTraces traces) {
		this.jdbc = jdbc;
		this.json = json;
		this.counts = counts;
		this.traces = traces;
	}

	long mail(Draft d) {
		Account account = d.account();
		SendRequest request = d.request();
		GeneratedKeyHolder key = new GeneratedKeyHolder();
		jdbc.sql("""
				INSERT INTO mail_content (office_no, user_no, mbox_no, subject, from_addr, to_addrs, received_date, size,
				  eml_path, compressed, is_read, important, encrypted, receipt_confirm, del_flag, delivery_id)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, FALSE, TRUE, ?, ?, ?, ?, ?)""")
			.params(account.office(), account.user(), Mailboxes.SENT, request.subject(), account.email(),
					Recipients.toColumn(d.to()), now(), d.size(), d.emlPath(), request.important(),
					request.isEncrypt(), request.isReceiptConfirm(), request.isSave() ? "N" : "Y", d.deliveryId())
			.update(key, "no");
		long mailNo = key.getKey().longValue();
		if (request.isSave()) {
			counts.added(account.office(), account.user(), Mailboxes.SENT, true);
		}
		return mailNo;
	}

	void receiptTags(Draft d, long mailNo) {
		d.receiptKeys().forEach((recipient, key) -> jdbc.sql(
				"INSERT INTO receipt_confirm (office_no, cert_key, email, mail_no) VALUES (?, ?, ?, ?)")
			.params(d.account().office(), key, recipient, mailNo)
			.update());
	}

	/** @return the outbox row's id */
	long outbox(Draft d, long mailNo) {
		Account account = d.account();
		SendRequest request = d.request();
		OutboxJob job = new OutboxJob(mailNo, account.office(), account.login(), account.email(), addresses(d.to()),
				addresses(d.cc()), addresses(d.bcc()), d.emlPath(), request.isSeparateSend(), null, d.receiptKeys(),
				traces.current());
		Timestamp now = now();
		GeneratedKeyHolder key = new GeneratedKeyHolder();
		jdbc.sql("INSERT INTO outbox (job_id, mail_no, payload, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)")
			.params(d.deliveryId(), mailNo, json.writeValueAsString(job), now, now)
			.update(key, "id");
		return key.getKey().longValue();
	}

	private static List<String> addresses(List<InternetAddress> list) {
		return list.stream().map(InternetAddress::getAddress).toList();
	}

	private static Timestamp now() {
		return Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
	}

	/**
	 * What the send service needs, carried in the outbox row: send never reads mail's tables. {@code traceparent}: the
	 * send request's trace, continued by the push (null with tracing off). {@code receiptKeys}: each recipient's own
	 * read-receipt key. {@code certKey}: only in rows written before keys were generated per recipient (not sent on).
	 */
	record OutboxJob(long mailNo, long office, String owner, String from, List<String> to, List<String> cc,
			List<String> bcc, String emlPath, boolean separateSend, String certKey, Map<String, String> receiptKeys,
			String traceparent) {
	}
}
