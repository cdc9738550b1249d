package dev.perflab.mail.eml;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

import org.apache.james.mime4j.MimeException;
import org.apache.james.mime4j.stream.BodyDescriptor;
import org.apache.james.mime4j.stream.EntityState;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeTokenStream;
import org.apache.james.mime4j.stream.RecursionMode;

/**
 * One forward pass over an EML with mime4j's token stream: nothing is decoded or kept unless a visitor asks for
 * it, so a 16 MB attachment costs a scan, not 16 MB of heap. Attachments are the leaf parts that are not the
 * message's text or HTML body, numbered from 0 in document order.
 */
final class MimeWalk {

	interface Visitor {

		/** A header of the top-level message. */
		default void header(Field field) {
		}

		/** The text or HTML body; {@code tokens} may be read with {@code getReader()}. */
		default void bodyText(String mimeType, MimeTokenStream tokens) throws IOException {
		}

		/** An attachment; return false to stop the walk. */
		default boolean attachment(int index, String name, BodyDescriptor body, MimeTokenStream tokens)
				throws IOException {
			return true;
		}
	}

	private MimeWalk() {
	}

	static void walk(InputStream eml, Visitor visitor) throws IOException {
		MimeTokenStream tokens = new MimeTokenStream(MimeParts.CONFIG);
		// an attached message/rfc822 is one attachment, not a tree to descend into
		tokens.setRecursionMode(RecursionMode.M_NO_RECURSE);
		tokens.parse(eml);
		boolean topHeader = true;
		String disposition = null;
		String contentTypeHeader = null;
		int attachments = 0;
		try {
			for (EntityState state = tokens.getState(); state != EntityState.T_END_OF_STREAM; state = tokens.next()) {
				switch (state) {
					case T_START_HEADER -> {
						disposition = null;
						contentTypeHeader = null;
					}
					case T_FIELD -> {
						Field field = tokens.getField();
						String name = field.getName().toLowerCase(Locale.ROOT);
						if (name.equals("content-disposition")) {
							disposition = field.getBody();
						}
						else if (name.equals("content-type")) {
							contentTypeHeader = field.getBody();
						}
						if (topHeader) {
							visitor.header(field);
						}
					}
					case T_END_HEADER -> topHeader = false;
					case T_BODY -> {
						BodyDescriptor body = tokens.getBodyDescriptor();
						if (MimeParts.isBodyText(body, disposition)) {
							visitor.bodyText(body.getMimeType().toLowerCase(Locale.ROOT), tokens);
						}
						else {
							String fileName = MimeParts.parameter(disposition, "filename");
							if (fileName == null) {
								fileName = MimeParts.parameter(contentTypeHeader, "name");
							}
							if (!visitor.attachment(attachments++, fileName, body, tokens)) {
								return;
							}
						}
					}
					default -> {
					}
				}
			}
		}
		catch (MimeException e) {
			throw new IOException("malformed MIME: " + e.getMessage(), e);
		}
	}
}
