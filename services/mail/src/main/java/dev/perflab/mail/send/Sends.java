package dev.perflab.mail.send;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.platform.ProblemException;

/**
 * Accepts a send request. The EML is written and synced first, outside any transaction; then the hand-off
 * (the lab switch {@code perflab.mail.send-handoff}) commits the sent mail, its receipt tags and what the send
 * service needs. The fixed hand-off never waits on the send service while holding a connection (seed 000's
 * REQUIRES_NEW inside an open transaction starved a pool of 10). The recipient and storage quotas refuse a send at
 * once when its hour or day is already full, and for good inside the hand-off's transaction (a 429 that writes
 * nothing; its EML is deleted).
 */
@Service
class Sends {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final Session SESSION = Session.getInstance(new Properties());

	private static final int MAX_RECIPIENTS = 300;

	private final EmlStore store;

	private final SendHandoff handoff;

	private final RecipientQuota quota;

	private final StorageQuota storage;

	Sends(EmlStore store, SendHandoff handoff, RecipientQuota quota, StorageQuota storage) {
		this.store = store;
		this.handoff = handoff;
		this.quota = quota;
		this.storage = storage;
	}

	/** @return the mail number and the id of its hand-off to send */
	Sent send(Account account, SendRequest request) {
		if (request.senderNo() != account.user()) {
			throw new ProblemException(HttpStatus.FORBIDDEN, "sender-mismatch", "sender_no is not the caller's account");
		}
		if (request.subject().chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
			throw ProblemException.badRequest("header-injection", "subject must not contain line breaks");
		}
		List<InternetAddress> to = Recipients.parse("to", request.toOrEmpty());
		List<InternetAddress> cc = Recipients.parse("cc", request.ccOrEmpty());
		List<InternetAddress> bcc = Recipients.parse("bcc", request.bccOrEmpty());
		Recipients.toColumn(to);
		Set<String> recipients = Recipients.unique(to, cc, bcc);
		if (recipients.isEmpty() || recipients.size() > MAX_RECIPIENTS) {
			throw ProblemException.badRequest("invalid-recipients", "A mail needs 1 to " + MAX_RECIPIENTS + " recipients");
		}
		quota.precheck(account, recipients.size());
		// the body's characters are fewer than the bytes of any encoding of them: what the EML will at least take
		storage.precheck(account.office(), request.content().length());
		// cert_key is seed 000's client-chosen key: accepted for its clients and ignored, since a chosen key can be guessed
		Map<String, String> receiptKeys = new LinkedHashMap<>();
		if (request.isReceiptConfirm()) {
			recipients.forEach(address -> receiptKeys.put(address, receiptKey()));
		}
		String deliveryId = UUID.randomUUID().toString();

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
			long mailNo = handoff.commit(new Draft(account, request, path, size, to, cc, bcc, recipients, deliveryId,
					receiptKeys));
			return new Sent(mailNo, deliveryId);
		}
		catch (RuntimeException e) {
			store.delete(path);
			throw e;
		}
	}

	/** 128 random bits, URL-safe: a recipient's read-receipt key, which only their message carries */
	static String receiptKey() {
		byte[] bits = new byte[16];
		RANDOM.nextBytes(bits);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
	}

	record Sent(long mailNo, String deliveryId) {
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
