package dev.perflab.send.delivery;

import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.util.MailConnectException;

import org.springframework.stereotype.Component;

import dev.perflab.platform.smtp.MailAddress;
import dev.perflab.platform.smtp.SmtpClient;
import dev.perflab.send.SendProperties;
import dev.perflab.send.delivery.Job.Recipient;
import dev.perflab.send.delivery.Outcome.Result;

/**
 * One SMTP transaction per call, to the configured relay through the project's {@link SmtpClient}. Replies are
 * sorted into delivered, failed for good (5xx) and retry later (4xx, timeouts, refused connections). The Message-ID is fixed per (mail, unit), so a message
 * sent again after a crash between the relay's 250 and our commit is recognisably the same message.
 */
@Component
class SmtpRelay {

	/** the reply recorded when the relay said nothing (refused connection, timeout) */
	private static final String NO_REPLY = "no reply: ";

	/** the reply recorded for an address the platform's address rule refuses */
	static final String INVALID_ADDRESS = "invalid address: not a bare printable-ASCII address";

	private final SmtpClient smtp;

	private final String receiptBaseUrl;

	SmtpRelay(SendProperties properties) {
		SendProperties.Smtp smtp = properties.smtp();
		this.smtp = new SmtpClient(new SmtpClient.Settings(smtp.host(), smtp.port(), smtp.connectTimeout(),
				smtp.timeout(), smtp.heloName()));
		this.receiptBaseUrl = properties.receiptBaseUrl().replaceAll("/+$", "");
	}

	/**
	 * Delivers one unit. A recipient the address rule refuses (a job taken before the rule was shared) fails at once,
	 * alone: it can never be delivered, and the rest of its unit still goes out.
	 */
	List<Outcome> send(Job job, List<Recipient> unit) {
		List<Outcome> outcomes = new ArrayList<>();
		List<Recipient> deliverable = new ArrayList<>();
		for (Recipient recipient : unit) {
			if (MailAddress.parse(recipient.email()).isPresent()) {
				deliverable.add(recipient);
			}
			else {
				outcomes.add(new Outcome(recipient.email(), Result.FAILED, INVALID_ADDRESS, null, null));
			}
		}
		if (!deliverable.isEmpty()) {
			outcomes.addAll(transaction(job, deliverable));
		}
		return outcomes;
	}

	private List<Outcome> transaction(Job job, List<Recipient> unit) {
		String messageId = messageId(job, unit);
		String receiptKey = unit.size() == 1 ? unit.getFirst().receiptKey() : null;
		String receiptUrl = receiptKey == null ? null : receiptUrl(job, receiptKey);
		try {
			MimeMessage message = new MimeMessage(smtp.session(), new ByteArrayInputStream(job.eml()));
			message.setHeader("Message-ID", messageId);
			message.setHeader("X-Perflab-Mail", String.valueOf(job.mailNo()));
			if (receiptUrl != null) {
				message.setHeader("X-Perflab-Receipt-Confirm", receiptUrl);
			}
			Address[] envelope = new Address[unit.size()];
			for (int i = 0; i < envelope.length; i++) {
				envelope[i] = new InternetAddress(unit.get(i).email(), false);
			}
			String reply = trim(smtp.send(message, envelope));
			return all(unit, Result.DELIVERED, reply, messageId, receiptUrl);
		}
		catch (SMTPSendFailedException e) {
			// MAIL FROM or DATA refused: the whole unit shares that fate (partial RCPT refusals arrive here too)
			if (e.getValidSentAddresses() != null && e.getValidSentAddresses().length > 0) {
				return partial(e, unit, messageId, receiptUrl);
			}
			return all(unit, e.getReturnCode() >= 500 ? Result.FAILED : Result.RETRY, trim(e.getMessage()), messageId,
					receiptUrl);
		}
		catch (SendFailedException e) {
			return partial(e, unit, messageId, receiptUrl);
		}
		catch (MessagingException | RuntimeException e) {
			// only a relay that cannot be reached, or stops answering, ends the pass; a conversation it broke off for
			// this unit is this unit's to retry, and the units after it are still sent
			return all(unit, relayDown(e) ? Result.UNREACHABLE : Result.RETRY,
					trim(NO_REPLY + e.getClass().getSimpleName() + ": " + e.getMessage()), messageId, receiptUrl);
		}
	}

	/** no connection (refused, timed out) or no answer in time: every other unit would wait for the same */
	private static boolean relayDown(Exception e) {
		for (Throwable t = e; t != null; t = t.getCause()) {
			if (t instanceof MailConnectException || t instanceof ConnectException || t instanceof SocketTimeoutException
					|| t instanceof UnknownHostException) {
				return true;
			}
		}
		return false;
	}

	private static List<Outcome> partial(SendFailedException e, List<Recipient> unit, String messageId, String receiptUrl) {
		Set<String> sent = emails(e.getValidSentAddresses());
		List<Outcome> outcomes = new ArrayList<>();
		for (Recipient recipient : unit) {
			if (sent.contains(recipient.email())) {
				outcomes.add(new Outcome(recipient.email(), Result.DELIVERED, "250 accepted", messageId, receiptUrl));
				continue;
			}
			SMTPAddressFailedException refusal = refusal(e, recipient.email());
			if (refusal != null) {
				outcomes.add(new Outcome(recipient.email(), refusal.getReturnCode() >= 500 ? Result.FAILED : Result.RETRY,
						trim(refusal.getReturnCode() + " " + refusal.getMessage()), messageId, receiptUrl));
			}
			else {
				outcomes.add(new Outcome(recipient.email(), Result.RETRY, trim(e.getMessage()), messageId, receiptUrl));
			}
		}
		return outcomes;
	}

	private static SMTPAddressFailedException refusal(MessagingException e, String email) {
		Exception next = e;
		while (next instanceof MessagingException m) {
			if (m instanceof SMTPAddressFailedException failed && failed.getAddress().getAddress().equalsIgnoreCase(email)) {
				return failed;
			}
			next = m.getNextException();
		}
		return null;
	}

	private static Set<String> emails(Address[] addresses) {
		Set<String> out = new HashSet<>();
		if (addresses != null) {
			for (Address address : addresses) {
				out.add(((InternetAddress) address).getAddress().toLowerCase(java.util.Locale.ROOT));
			}
		}
		return out;
	}

	private static List<Outcome> all(List<Recipient> unit, Result result, String reply, String messageId,
			String receiptUrl) {
		return unit.stream().map(r -> new Outcome(r.email(), result, reply, messageId, receiptUrl)).toList();
	}

	/** the recipient's own key names their receipt: the link says nothing about the mail or the address */
	private String receiptUrl(Job job, String receiptKey) {
		return receiptBaseUrl + "/v2/office/" + job.office() + "/receipt-confirm/"
				+ URLEncoder.encode(receiptKey, StandardCharsets.UTF_8);
	}

	/**
	 * {@code <job id>@send.perflab} for a shared message, {@code <job id>.<hash of the address>@send.perflab} per
	 * recipient: the job id never repeats, where a mail number does once mail's database is recreated.
	 */
	private static String messageId(Job job, List<Recipient> unit) {
		if (!job.messagePerRecipient()) {
			return "<" + job.id() + "@send.perflab>";
		}
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(unit.getFirst().email().getBytes(StandardCharsets.UTF_8));
			return "<" + job.id() + "." + HexFormat.of().formatHex(hash, 0, 8) + "@send.perflab>";
		}
		catch (NoSuchAlgorithmException e) {
			throw new IllegalStateException(e);
		}
	}

	private static String trim(String reply) {
		if (reply == null) {
			return null;
		}
		String flat = reply.replaceAll("\\s+", " ").trim();
		return flat.length() > 500 ? flat.substring(0, 500) : flat;
	}
}
