package dev.perflab.mail.eml;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.apache.james.mime4j.codec.DecodeMonitor;
import org.apache.james.mime4j.codec.DecoderUtil;
import org.apache.james.mime4j.stream.BodyDescriptor;
import org.apache.james.mime4j.stream.Field;
import org.apache.james.mime4j.stream.MimeConfig;
import org.apache.james.mime4j.stream.NameValuePair;
import org.apache.james.mime4j.stream.ParserCursor;
import org.apache.james.mime4j.stream.RawBody;
import org.apache.james.mime4j.stream.RawFieldParser;
import org.apache.james.mime4j.util.ByteArrayBuffer;

/** The rules shared by every reader: which leaf part is an attachment, and how its name is read. */
final class MimeParts {

	/** Lenient with real-world mail, strict enough to stop a header bomb. */
	static final MimeConfig CONFIG = MimeConfig.custom()
		.setMaxLineLen(-1)
		.setMaxHeaderCount(1_000)
		.setMaxHeaderLen(100_000)
		.setMaxContentLen(-1)
		.build();

	private MimeParts() {
	}

	static boolean isBodyText(BodyDescriptor body, String disposition) {
		String type = body.getMimeType().toLowerCase(Locale.ROOT);
		return (type.equals("text/plain") || type.equals("text/html"))
				&& (disposition == null || !disposition.toLowerCase(Locale.ROOT).startsWith("attachment"));
	}

	static String parameter(String headerValue, String name) {
		if (headerValue == null) {
			return null;
		}
		byte[] bytes = headerValue.getBytes(StandardCharsets.UTF_8);
		ByteArrayBuffer buffer = new ByteArrayBuffer(bytes, bytes.length, false);
		RawBody body = RawFieldParser.DEFAULT.parseRawBody(buffer, new ParserCursor(0, bytes.length));
		for (NameValuePair pair : body.getParams()) {
			if (pair.getName().equalsIgnoreCase(name)) {
				return decode(pair.getValue());
			}
		}
		return null;
	}

	static String decode(String encodedWords) {
		return encodedWords == null ? null : DecoderUtil.decodeEncodedWords(encodedWords, DecodeMonitor.SILENT);
	}

	static String value(Field field) {
		return decode(field.getBody().trim());
	}
}
