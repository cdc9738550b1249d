package dev.perflab.mail.eml;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;

/**
 * Seed 000's read, kept as the baseline: the whole EML is read into the heap, then every attachment's bytes are
 * decoded into a {@code byte[]} that nobody uses. Under load with a 22 MB mail this exhausts a 1 GB heap.
 */
class InMemoryEmlReader implements EmlReader {

	private static final Session SESSION = Session.getInstance(new Properties());

	private final EmlStore store;

	InMemoryEmlReader(EmlStore store) {
		this.store = store;
	}

	@Override
	public MailView read(StoredEml eml) throws IOException {
		byte[] raw;
		try (InputStream in = store.open(eml)) {
			raw = in.readAllBytes();
		}
		try {
			MimeMessage message = new MimeMessage(SESSION, new ByteArrayInputStream(raw));
			Bodies bodies = new Bodies();
			collect(message, bodies);
			return new MailView(message.getSubject(), first(message.getFrom()), all(message.getRecipients(Message.RecipientType.TO)),
					all(message.getRecipients(Message.RecipientType.CC)), message.getHeader("Date", null),
					message.getMessageID(), bodies.text, bodies.html, false);
		}
		catch (MessagingException e) {
			throw new IOException("malformed MIME: " + e.getMessage(), e);
		}
	}

	private static void collect(Part part, Bodies bodies) throws MessagingException, IOException {
		if (part.isMimeType("multipart/*")) {
			Multipart multipart = (Multipart) part.getContent();
			for (int i = 0; i < multipart.getCount(); i++) {
				BodyPart child = multipart.getBodyPart(i);
				collect(child, bodies);
			}
		}
		else if (part.isMimeType("text/plain") && !Part.ATTACHMENT.equalsIgnoreCase(part.getDisposition())
				&& bodies.text == null) {
			bodies.text = (String) part.getContent();
		}
		else if (part.isMimeType("text/html") && !Part.ATTACHMENT.equalsIgnoreCase(part.getDisposition())
				&& bodies.html == null) {
			bodies.html = (String) part.getContent();
		}
		else {
			try (InputStream in = part.getInputStream()) {
				bodies.attachmentBytes.add(in.readAllBytes());
			}
		}
	}

	private static String first(jakarta.mail.Address[] addresses) {
		return addresses == null || addresses.length == 0 ? null : ((InternetAddress) addresses[0]).toUnicodeString();
	}

	private static List<String> all(jakarta.mail.Address[] addresses) {
		List<String> out = new ArrayList<>();
		if (addresses != null) {
			for (jakarta.mail.Address a : addresses) {
				out.add(((InternetAddress) a).toUnicodeString());
			}
		}
		return out;
	}

	private static final class Bodies {

		String text, html;

		final List<byte[]> attachmentBytes = new ArrayList<>();
	}
}
