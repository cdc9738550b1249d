package dev.perflab.mail.message;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.core.io.AbstractResource;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRange;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StreamUtils;
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
 * the connector's sendfile (zero copy): the bytes never pass through the heap. A Range asks for one part: several
 * ranges are served as the one range spanning them (each range would reopen and re-decode the stream), a range past
 * the end is a 416 problem, a Range that does not parse is ignored (RFC 9110). Every answer says {@code nosniff}: an
 * attachment is served as the type the mail declared, never as what a browser guesses from its bytes.
 */
@RestController
class RawController {

	private static final MediaType RFC822 = MediaType.parseMediaType("message/rfc822");

	private static final String NOSNIFF_HEADER = "X-Content-Type-Options";

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
	@ApiResponse(responseCode = "200", description = "The whole EML",
			content = @Content(mediaType = "message/rfc822", schema = @Schema(type = "string", format = "binary")))
	@ApiResponse(responseCode = "206", description = "The one range the Range header spans",
			headers = @Header(name = "Content-Range", schema = @Schema(type = "string")),
			content = @Content(mediaType = "message/rfc822", schema = @Schema(type = "string", format = "binary")))
	@ApiResponse(responseCode = "403", description = "The caller's office is not a mail office, or the caller has no mail account")
	@ApiResponse(responseCode = "416", description = "The range starts past the end",
			headers = @Header(name = "Content-Range", schema = @Schema(type = "string")))
	ResponseEntity<Resource> eml(Caller caller, @Parameter(description = "the mail number", schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String no, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
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
			response.setHeader(NOSNIFF_HEADER, "nosniff");
			return null;
		}
		return serve(request, response, RFC822, mail.no() + ".eml", new Streamed(eml.size(), () -> store.open(eml)));
	}

	@GetMapping("/v2/mails/{no}/attachments/{index}")
	@ApiResponse(responseCode = "200", description = "The attachment, as the type the mail declared",
			content = @Content(mediaType = "*/*", schema = @Schema(type = "string", format = "binary")))
	@ApiResponse(responseCode = "206", description = "The one range the Range header spans",
			headers = @Header(name = "Content-Range", schema = @Schema(type = "string")),
			content = @Content(mediaType = "*/*", schema = @Schema(type = "string", format = "binary")))
	@ApiResponse(responseCode = "403", description = "The caller's office is not a mail office, or the caller has no mail account")
	@ApiResponse(responseCode = "416", description = "The range starts past the end",
			headers = @Header(name = "Content-Range", schema = @Schema(type = "string")))
	ResponseEntity<Resource> attachment(Caller caller, @Parameter(description = "the mail number", schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable String no,
			@Parameter(description = "the attachment's index, from 0", schema = @Schema(type = "integer", minimum = "0"))
			@PathVariable String index,
			HttpServletRequest request, HttpServletResponse response) throws IOException {
		Account account = accounts.require(caller);
		Mails.StoredMail mail = mails.find(account, MailNumbers.parse(no));
		OptionalInt wanted = MailNumbers.index(index, "attachment index");
		Mails.AttachmentView found = mails.attachments(mail.no())
			.stream()
			.filter(a -> wanted.isPresent() && a.index() == wanted.getAsInt())
			.findFirst()
			.orElseThrow(() -> ProblemException.notFound("Mail " + mail.no() + " has no attachment " + index));
		int i = found.index();
		return serve(request, response, mediaType(found.contentType()), found.name(), new Streamed(found.size(), () -> {
			InputStream in = attachments.open(mail.eml(), i);
			if (in == null) {
				throw new IOException("attachment " + i + " of mail " + mail.no() + " is missing from its EML");
			}
			return in;
		}));
	}

	/** The whole stream, or the one range the Range header spans (written here: null is returned then). */
	private static ResponseEntity<Resource> serve(HttpServletRequest request, HttpServletResponse response,
			MediaType type, String filename, Streamed body) throws IOException {
		long length = body.contentLength();
		ResponseEntity.BodyBuilder whole = ResponseEntity.ok()
			.contentType(type)
			.header(HttpHeaders.CONTENT_DISPOSITION, download(filename))
			.header(HttpHeaders.ACCEPT_RANGES, "bytes")
			.header(NOSNIFF_HEADER, "nosniff");
		String header = request.getHeader(HttpHeaders.RANGE);
		List<HttpRange> ranges;
		try {
			ranges = header == null ? List.of() : HttpRange.parseRanges(header);
		}
		catch (IllegalArgumentException e) {
			ranges = List.of(); // not a Range this server understands: the whole representation (RFC 9110 14.2)
		}
		if (header == null) {
			return whole.contentLength(length).body(body);
		}
		if (ranges.isEmpty()) {
			// written here: handed back as a Resource, Spring would parse the Range again and answer 416
			return write(response, HttpStatus.OK, type, filename, body, 0, length - 1, null);
		}
		long start = Long.MAX_VALUE;
		long end = -1;
		for (HttpRange range : ranges) {
			try {
				start = Math.min(start, range.getRangeStart(length));
				end = Math.max(end, range.getRangeEnd(length));
			}
			catch (IllegalArgumentException unsatisfiable) {
				// starts past the end: other ranges may still be served
			}
		}
		if (end < start) {
			response.setHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + length);
			throw new ProblemException(HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, "range-not-satisfiable",
					"The range starts past the end: this representation has " + length + " bytes");
		}
		return write(response, HttpStatus.PARTIAL_CONTENT, type, filename, body, start, end,
				"bytes " + start + "-" + end + "/" + length);
	}

	private static ResponseEntity<Resource> write(HttpServletResponse response, HttpStatus status, MediaType type,
			String filename, Streamed body, long start, long end, String contentRange) throws IOException {
		response.setStatus(status.value());
		response.setContentType(type.toString());
		response.setHeader(HttpHeaders.CONTENT_DISPOSITION, download(filename));
		response.setHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
		response.setHeader(NOSNIFF_HEADER, "nosniff");
		if (contentRange != null) {
			response.setHeader(HttpHeaders.CONTENT_RANGE, contentRange);
		}
		response.setContentLengthLong(end - start + 1);
		try (InputStream in = body.getInputStream()) {
			StreamUtils.copyRange(in, response.getOutputStream(), start, end);
		}
		return null;
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
