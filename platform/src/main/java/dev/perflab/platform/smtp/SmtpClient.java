package dev.perflab.platform.smtp;

import java.time.Duration;
import java.util.Properties;

import jakarta.mail.Address;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;
import org.eclipse.angus.mail.smtp.SMTPTransport;

/**
 * The project's one SMTP client: a session to one relay with bounded connect, read and write timeouts, and one SMTP
 * transaction per {@link #send} (connect, MAIL/RCPT/DATA, QUIT). What a reply means for a retry stays with the
 * caller; {@link #replyCode} reads it. The services that send mail (send, notifier) declare angus-mail themselves.
 */
public final class SmtpClient {

	private final Session session;

	public SmtpClient(Settings settings) {
		Properties props = new Properties();
		props.put("mail.smtp.host", settings.host());
		props.put("mail.smtp.port", String.valueOf(settings.port()));
		props.put("mail.smtp.connectiontimeout", String.valueOf(settings.connectTimeout().toMillis()));
		props.put("mail.smtp.timeout", String.valueOf(settings.timeout().toMillis()));
		props.put("mail.smtp.writetimeout", String.valueOf(settings.timeout().toMillis()));
		props.put("mail.smtp.localhost", settings.heloName());
		// deliver to the recipients the relay accepts even when it refuses some (their failure is recorded per address)
		props.put("mail.smtp.sendpartial", "true");
		this.session = Session.getInstance(props);
	}

	/** The session messages are built in. */
	public Session session() {
		return session;
	}

	/**
	 * One SMTP transaction to the relay.
	 *
	 * @return the relay's last reply (normally the 250 after DATA)
	 * @throws MessagingException refused (see {@link #replyCode}) or no answer (connect refused, timeout)
	 */
	public String send(MimeMessage message, Address[] envelope) throws MessagingException {
		try (Transport transport = session.getTransport("smtp")) {
			transport.connect();
			transport.sendMessage(message, envelope);
			return transport instanceof SMTPTransport smtp ? smtp.getLastServerResponse() : "250";
		}
	}

	/** The SMTP reply code behind a refusal, or -1 when the relay said nothing (connect refused, timeout). */
	public static int replyCode(MessagingException e) {
		for (Exception next = e; next instanceof MessagingException m; next = m.getNextException()) {
			if (m instanceof SMTPSendFailedException failed) {
				return failed.getReturnCode();
			}
			if (m instanceof SMTPAddressFailedException failed) {
				return failed.getReturnCode();
			}
		}
		return -1;
	}

	/**
	 * @param host relay host
	 * @param port relay port
	 * @param connectTimeout connect timeout
	 * @param timeout read and write timeout of one SMTP command
	 * @param heloName the name sent in EHLO
	 */
	public record Settings(String host, int port, Duration connectTimeout, Duration timeout, String heloName) {
	}
}
