package dev.perflab.mail.send;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.platform.ProblemException;

/**
 * Accepts a send request. The EML is written and synced first, outside any transaction; then the hand-off
 * (the lab switch {@code perflab.mail.send-handoff}) commits the sent mail, its receipt tags and what the send
 * service needs. The fixed hand-off never waits on the send service while holding a connection (seed 000's
 * REQUIRES_NEW inside an open transaction starved a pool of 10).
 */
@Service
class Sends {

	private static final Pattern CERT_KEY = Pattern.compile("[A-Za-z0-9_-]{1,64}");

	private static final Session SESSION = Session.getInstance(new Properties());

	private static final int MAX_RECIPIENTS = 300;

	private final EmlStore store;

	private final SendHandoff handoff;

	Sends(EmlStore store, SendHandoff handoff) {
		this.store = store;
		this.handoff = handoff;
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
			return handoff.commit(new Draft(account, request, path, size, to, cc, bcc, recipients));
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
}
