package dev.perflab.mail.eml;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeTokenStream;

/**
 * The fixed read: MIME parsed from disk in one pass; only headers and the text/HTML bodies are decoded, so the
 * heap a read needs does not grow with the attachments (seed 000: a 16 MB attachment read into {@code byte[]}
 * took the pod down at 30 users with a 1 GB heap).
 */
class StreamingEmlReader implements EmlReader {

	private final EmlStore store;

	private final int maxBodyChars;

	StreamingEmlReader(EmlStore store, int maxBodyChars) {
		this.store = store;
		this.maxBodyChars = maxBodyChars;
	}

	@Override
	public MailView read(StoredEml eml) throws IOException {
		Collector collector = new Collector(maxBodyChars);
		try (InputStream in = store.open(eml)) {
			MimeWalk.walk(in, collector);
		}
		return collector.view();
	}

	private static final class Collector implements MimeWalk.Visitor {

		private final int maxChars;

		String subject, from, date, messageId, text, html;

		List<String> to = List.of(), cc = List.of();

		boolean truncated;

		Collector(int maxChars) {
			this.maxChars = maxChars;
		}

		@Override
		public void header(Field field) {
			switch (field.getName().toLowerCase(Locale.ROOT)) {
				case "subject" -> subject = MimeParts.value(field);
				case "from" -> from = MimeParts.value(field);
				case "to" -> to = addresses(field.getBody());
				case "cc" -> cc = addresses(field.getBody());
				case "date" -> date = field.getBody().trim();
				case "message-id" -> messageId = field.getBody().trim();
				default -> {
				}
			}
		}

		@Override
		public void bodyText(String mimeType, MimeTokenStream tokens) throws IOException {
			boolean isHtml = mimeType.equals("text/html");
			if ((isHtml ? html : text) != null) {
				return;
			}
			StringBuilder out = new StringBuilder();
			char[] buffer = new char[8192];
			try (Reader reader = tokens.getReader()) {
				int n;
				while ((n = reader.read(buffer)) > 0) {
					int room = maxChars - out.length();
					if (n > room) {
						out.append(buffer, 0, room);
						truncated = true;
						break;
					}
					out.append(buffer, 0, n);
				}
			}
			if (isHtml) {
				html = out.toString();
			}
			else {
				text = out.toString();
			}
		}

		MailView view() {
			return new MailView(subject, from, to, cc, date, messageId, text, html, truncated);
		}
	}

	static List<String> addresses(String header) {
		try {
			List<String> out = new ArrayList<>();
			for (InternetAddress address : InternetAddress.parseHeader(MimeParts.decode(header), false)) {
				out.add(address.toUnicodeString());
			}
			return out;
		}
		catch (AddressException e) {
			return List.of(header.trim());
		}
	}
}
