package dev.perflab.mail.eml;

import java.util.List;

/** What a mail read returns from the EML: headers and bodies. Attachment bytes are never part of it. */
public record MailView(String subject, String from, List<String> to, List<String> cc, String date, String messageId,
		String text, String html, boolean truncated) {
}
