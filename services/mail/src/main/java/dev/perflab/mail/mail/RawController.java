package dev.perflab.mail.mail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.io.AbstractResource;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.mail.Accounts;
import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.eml.Attachments;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.mail.eml.StoredEml;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Raw EML and single attachments, streamed with Range support. An uncompressed EML without a Range goes out by
 * the connector's sendfile (zero copy): the bytes never pass through the heap.
 */
@RestController
class RawController {

	private static final MediaType RFC822 = MediaType.parseMediaType("message/rfc822");

	private final Accounts accounts;

	private final Mails mails;

	private final EmlStore store;

	private final Attachments attachments;

	RawController(Accounts accounts, Mails mails, EmlStore store, Attachments attachments) {
		this.accounts = accounts;
		this.mails = mails;
		this.store = store;
		this.attachments = attachments;
	}

	@GetMapping("/v2/mails/{no}/eml")
	ResponseEntity<Resource> eml(Caller caller, @PathVariable String no, HttpServletRequest request,
			HttpServletResponse response) {
		Mails.StoredMail mail = mails.find(accounts.require(caller), MailNumbers.parse(no));
		StoredEml eml = mail.eml();
		if (!eml.compressed() && request.getHeader(HttpHeaders.RANGE) == null
				&& Boolean.TRUE.equals(request.getAttribute("org.apache.tomcat.sendfile.support"))) {
			request.setAttribute("org.apache.tomcat.sendfile.filename", store.resolve(eml.path()).toString());
			request.setAttribute("org.apache.tomcat.sendfile.start", 0L);
			request.setAttribute("org.apache.tomcat.sendfile.end", eml.size());
			response.setContentType(RFC822.toString());
			response.setContentLengthLong(eml.size());
			response.setHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
			response.setHeader(HttpHeaders.CONTENT_DISPOSITION, download(mail.no() + ".eml"));
			return null;
		}
		return ResponseEntity.ok()
			.contentType(RFC822)
			.header(HttpHeaders.CONTENT_DISPOSITION, download(mail.no() + ".eml"))
			.body(new Streamed(eml.size(), () -> store.open(eml)));
	}

	@GetMapping("/v2/mails/{no}/attachments/{index}")
	ResponseEntity<Resource> attachment(Caller caller, @PathVariable String no, @PathVariable String index) {
		Account account = accounts.require(caller);
		Mails.StoredMail mail = mails.find(account, MailNumbers.parse(no));
		int i = (int) MailNumbers.parse(index, "attachment index", 0);
		Mails.AttachmentView found = mails.attachments(mail.no())
			.stream()
			.filter(a -> a.index() == i)
			.findFirst()
			.orElseThrow(() -> ProblemException.notFound("Mail " + mail.no() + " has no attachment " + i));
		return ResponseEntity.ok()
			.contentType(mediaType(found.contentType()))
			.header(HttpHeaders.CONTENT_DISPOSITION, download(found.name()))
			.body(new Streamed(found.size(), () -> {
				InputStream in = attachments.open(mail.eml(), i);
				if (in == null) {
					throw new IOException("attachment " + i + " of mail " + mail.no() + " is missing from its EML");
				}
				return in;
			}));
	}

	private static String download(String name) {
		return ContentDisposition.attachment().filename(name, StandardCharsets.UTF_8).build().toString();
	}

	private static MediaType mediaType(String value) {
		try {
			return MediaType.parseMediaType(value);
		}
		catch (IllegalArgumentException e) {
			return MediaType.APPLICATION_OCTET_STREAM;
		}
	}

	/** A stream of known length, opened only when written, so Spring can answer Range requests from it. */
	private static final class Streamed extends AbstractResource {

		private final long length;

		private final Opener opener;

		Streamed(long length, Opener opener) {
			this.length = length;
			this.opener = opener;
		}

		@Override
		public InputStream getInputStream() throws IOException {
			return opener.open();
		}

		@Override
		public long contentLength() {
			return length;
		}

		@Override
		public boolean isReadable() {
			return true;
		}

		@Override
		public String getDescription() {
			return "mail stream of " + length + " bytes";
		}
	}

	@FunctionalInterface
	private interface Opener {

		InputStream open() throws IOException;
	}
}
