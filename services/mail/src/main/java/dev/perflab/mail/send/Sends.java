package dev.perflab.mail.send;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.mail.mailbox.MailboxCounts;
import dev.perflab.mail.mailbox.Mailboxes;
import dev.perflab.platform.ProblemException;

/**
 * Accepts a send request. The EML is written and synced first, outside any transaction; then one short
 * transaction commits the sent mail, its receipt tags and an outbox row for the send service. Nothing waits on
 * the send service while holding a connection (seed 000's REQUIRES_NEW inside an open transaction starved a
 * pool of 10).
 */
@Service
class Sends {

	private static final Pattern CERT_KEY = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	private static final Session SESSION = Session.getInstance(new Properties());

	private static final int MAX_RECIPIENTS = 300;

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	private final EmlStore store;

	private final JsonMapper json;

	private final MailboxCounts counts;

	Sends(JdbcClient jdbc, TransactionTemplate tx, EmlStore store, JsonMapper json, MailboxCounts counts) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.store = store;
		this.json = json;
		this.counts = counts;
	}

	long send(Account account, SendRequest request) {
		if (request.senderNo() != account.user()) {
			throw new ProblemException(HttpStatus.FORBIDDEN, "sender-mismatch", "sender_no is not the caller's account");
		}
		if (request.subject().chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
			throw ProblemException.badRequest("header-injection", "subject must not contain line breaks");
		}
		List<InternetAddress> to = Recipients.parse("to", request.toOrEmpty());
		List<InternetAddress> cc = Recipients.parse("cc", request.ccOrEmpty());
		List<InternetAddress> bcc = Recipients.parse("bcc", request.bccOrEmpty());
		Set<String> recipients = Recipients.unique(to, cc, bcc);
		if (recipients.isEmpty() || recipients.size() > MAX_RECIPIENTS) {
			throw ProblemException.badRequest("invalid-recipients", "A mail needs 1 to " + MAX_RECIPIENTS + " recipients");
		}
		if (request.isReceiptConfirm() && (request.certKey() == null || !CERT_KEY.matcher(request.certKey()).matches())) {
			throw ProblemException.badRequest("invalid-field", "cert_key is required for a read receipt: 1-64 of [A-Za-z0-9_-]");
		}

		MimeMessage message = compose(account, request, to, cc);
		String path;
		long size;
		try {
			path = store.write(out -> {
				try {
					message.writeTo(out);
				}
				catch (MessagingException e) {
					throw new IOException(e);
				}
			});
			size = Files.size(store.resolve(path));
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		try {
			return tx.execute(status -> persist(account, request, path, size, to, cc, bcc, recipients));
		}
		catch (DuplicateKeyException e) {
			store.delete(path);
			throw new ProblemException(HttpStatus.CONFLICT, "cert-key-in-use",
					"cert_key already tags a read receipt for one of these recipients; use a new key per mail");
		}
		catch (RuntimeException e) {
			store.delete(path);
			throw e;
		}
	}

	private long persist(Account account, SendRequest request, String path, long size, List<InternetAddress> to,
			List<InternetAddress> cc, List<InternetAddress> bcc, Set<String> recipients) {
		Timestamp now = Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MICROS));
		GeneratedKeyHolder key = new GeneratedKeyHolder();
		jdbc.sql("""
				INSERT INTO mail_content (office_no, user_no, mbox_no, subject, from_addr, to_addrs, received_date, size,
				  eml_path, compressed, is_read, important, encrypted, receipt_confirm, del_flag)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, FALSE, TRUE, ?, ?, ?, ?)""")
			.params(account.office(), account.user(), Mailboxes.SENT, request.subject(), account.email(),
					String.join(", ", addresses(to)), now, size, path, request.important(), request.isEncrypt(),
					request.isReceiptConfirm(), request.isSave() ? "N" : "Y")
			.update(key, "no");
		long mailNo = key.getKey().longValue();
		if (request.isSave()) {
			counts.added(account.office(), account.user(), Mailboxes.SENT, true);
		}
		if (request.isReceiptConfirm()) {
			for (String recipient : recipients) {
				jdbc.sql("INSERT INTO receipt_confirm (office_no, cert_key, email, mail_no) VALUES (?, ?, ?, ?)")
					.params(account.office(), request.certKey(), recipient, mailNo)
					.update();
			}
		}
		OutboxJob job = new OutboxJob(mailNo, account.office(), account.email(), addresses(to), addresses(cc),
				addresses(bcc), path, request.isSeparateSend(), request.isReceiptConfirm() ? request.certKey() : null);
		jdbc.sql("INSERT INTO outbox (mail_no, payload, created_at) VALUES (?, ?, ?)")
			.params(mailNo, json.writeValueAsString(job), now)
			.update();
		return mailNo;
	}

	private static MimeMessage compose(Account account, SendRequest request, List<InternetAddress> to,
			List<InternetAddress> cc) {
		try {
			MimeMessage message = new MimeMessage(SESSION);
			message.setFrom(new InternetAddress(account.email()));
			message.setRecipients(Message.RecipientType.TO, to.toArray(InternetAddress[]::new));
			message.setRecipients(Message.RecipientType.CC, cc.toArray(InternetAddress[]::new));
			message.setSubject(request.subject(), "UTF-8");
			message.setSentDate(new Date());
			message.setText(request.content(), "UTF-8");
			if (request.important()) {
				message.setHeader("X-Priority", "1");
			}
			message.saveChanges();
			return message;
		}
		catch (MessagingException e) {
			throw ProblemException.badRequest("invalid-mail", "The mail cannot be composed: " + e.getMessage());
		}
	}

	private static List<String> addresses(List<InternetAddress> list) {
		return list.stream().map(InternetAddress::getAddress).toList();
	}

	/** What the send service needs, carried in the job: it never reads mail's tables. */
	record OutboxJob(long mailNo, long office, String from, List<String> to, List<String> cc, List<String> bcc,
			String emlPath, boolean separateSend, String certKey) {
	}
}
