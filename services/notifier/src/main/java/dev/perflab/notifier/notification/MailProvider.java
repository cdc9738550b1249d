package dev.perflab.notifier.notification;

import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;
import dev.perflab.platform.smtp.SmtpClient;

/**
 * A mail is one SMTP transaction to the relay through the project's {@link SmtpClient} (seed 003's sign-up waited
 * 1 s on it inside the request). Its Message-ID is the notification's, the same on every attempt. A 5xx reply is
 * final; a 4xx, a timeout or a refused connection is retried.
 */
@Component
class MailProvider implements Provider {

	private final SmtpClient smtp;

	private final InternetAddress from;

	MailProvider(NotifierProperties properties) throws AddressException {
		NotifierProperties.Mail mail = properties.mail();
		this.smtp = new SmtpClient(new SmtpClient.Settings(mail.host(), mail.port(), mail.connectTimeout(),
				mail.timeout(), mail.heloName()));
		this.from = new InternetAddress(mail.from(), true);
	}

	@Override
	public Channel channel() {
		return Channel.MAIL;
	}

	@Override
	public void send(Claimed notification) throws DeliveryFailure {
		try {
			InternetAddress to = new InternetAddress(notification.recipient(), true);
			MimeMessage message = new FixedIdMessage(smtp.session(), "<" + notification.messageId() + "@notifier.perflab>");
			message.setFrom(from);
			message.setRecipient(MimeMessage.RecipientType.TO, to);
			message.setSubject(notification.subject(), "UTF-8");
			message.setText(notification.body(), "UTF-8");
			message.setHeader("X-Perflab-Notification", String.valueOf(notification.id()));
			smtp.send(message, new Address[] { to });
		}
		catch (AddressException e) {
			throw new DeliveryFailure(true, FailureReason.INVALID_RECIPIENT, "invalid address: " + e.getMessage());
		}
		catch (MessagingException e) {
			int code = SmtpClient.replyCode(e);
			FailureReason reason = code < 0 ? FailureReason.PROVIDER_UNREACHABLE
					: code >= 500 ? FailureReason.PROVIDER_REJECTED : FailureReason.PROVIDER_UNAVAILABLE;
			throw new DeliveryFailure(code >= 500, reason, (code < 0 ? "no reply: " : code + " ") + e.getMessage());
		}
	}

	/** Keeps the notification's Message-ID where saving the message would make up a new one. */
	private static final class FixedIdMessage extends MimeMessage {

		private final String messageId;

		FixedIdMessage(Session session, String messageId) {
			super(session);
			this.messageId = messageId;
		}

		@Override
		protected void updateMessageID() throws MessagingException {
			setHeader("Message-ID", messageId);
		}
	}
}
