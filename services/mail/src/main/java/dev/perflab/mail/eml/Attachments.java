package dev.perflab.mail.eml;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import org.apache.james.mime4j.stream.BodyDescriptor;
import org.apache.james.mime4j.stream.MimeTokenStream;

import org.springframework.stereotype.Component;

/** Finds attachments in an EML and opens one of them decoded, while streaming. */
@Component
public class Attachments {

	private final EmlStore store;

	public Attachments(EmlStore store) {
		this.store = store;
	}

	/** Every attachment with its decoded size, in one pass (used when a mail is stored, never on a read). */
	public List<AttachmentInfo> index(StoredEml eml) throws IOException {
		List<AttachmentInfo> found = new ArrayList<>();
		try (InputStream in = store.open(eml)) {
			MimeWalk.walk(in, new MimeWalk.Visitor() {
				@Override
				public boolean attachment(int index, String name, BodyDescriptor body, MimeTokenStream tokens)
						throws IOException {
					long size;
					try (InputStream decoded = tokens.getDecodedInputStream()) {
						size = decoded.transferTo(java.io.OutputStream.nullOutputStream());
					}
					found.add(new AttachmentInfo(index, name == null ? "attachment-" + index : name, size,
							body.getMimeType()));
					return true;
				}
			});
		}
		return found;
	}

	/**
	 * The decoded bytes of attachment {@code index}, read while the EML streams past; closing it closes the file.
	 * Null when the EML has no such attachment.
	 */
	public InputStream open(StoredEml eml, int index) throws IOException {
		InputStream file = store.open(eml);
		InputStream[] found = new InputStream[1];
		try {
			MimeWalk.walk(file, new MimeWalk.Visitor() {
				@Override
				public boolean attachment(int i, String name, BodyDescriptor body, MimeTokenStream tokens) {
					if (i != index) {
						return true;
					}
					found[0] = tokens.getDecodedInputStream();
					return false;
				}
			});
		}
		catch (IOException | RuntimeException e) {
			file.close();
			throw e;
		}
		if (found[0] == null) {
			file.close();
			return null;
		}
		return new FilterInputStream(found[0]) {
			@Override
			public void close() throws IOException {
				file.close();
			}
		};
	}

	public record AttachmentInfo(int index, String name, long size, String contentType) {
	}
}
