package dev.perflab.platform;

import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error leaves a service as {@code application/problem+json} with a stable type: bad input is a 4xx the
 * caller can fix, and an unexpected failure is a 500 without a stack trace.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ProblemHandler extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		if (findCause(ex, PayloadTooLargeException.class) != null) {
			return problem(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large",
					findCause(ex, PayloadTooLargeException.class).getMessage());
		}
		String message = String.valueOf(ex.getMostSpecificCause().getMessage());
		boolean unknownField = message.contains("Unrecognized property") || message.contains("Unrecognized field");
		return unknownField
				? problem(HttpStatus.BAD_REQUEST, "unknown-field", firstLine(message))
				: problem(HttpStatus.BAD_REQUEST, "malformed-body", "The request body is not valid JSON for this endpoint");
	}

	@Override
	protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, "invalid-field", "The request has invalid fields");
		List<Map<String, String>> errors = ex.getBindingResult().getFieldErrors().stream()
			.map(e -> Map.of("field", e.getField(), "message", String.valueOf(e.getDefaultMessage())))
			.toList();
		problem.setProperty("errors", errors);
		return ResponseEntity.badRequest().body(problem);
	}

	@Override
	protected ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		return problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type",
				"Send the body as application/json");
	}

	@ExceptionHandler(PayloadTooLargeException.class)
	ResponseEntity<Object> payloadTooLarge(PayloadTooLargeException ex) {
		return problem(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", ex.getMessage());
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<Object> unexpected(Exception ex) {
		if (findCause(ex, java.sql.SQLTransientConnectionException.class) != null) {
			// the connection pool stayed empty for its whole timeout: overload, not a bug; tell the caller to back off
			log.warn("no database connection within the pool timeout: {}", ex.getMessage());
			return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
				.header(HttpHeaders.RETRY_AFTER, "1")
				.body(Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "overloaded",
						"The service is saturated (no database connection available); retry shortly"));
		}
		log.error("unexpected failure", ex);
		return problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "The service failed to answer; retry later");
	}

	private static ResponseEntity<Object> problem(HttpStatus status, String slug, String detail) {
		return ResponseEntity.status(status).body(Problems.of(status, slug, detail));
	}

	private static String firstLine(String message) {
		int newline = message.indexOf('\n');
		String line = newline < 0 ? message : message.substring(0, newline);
		int source = line.indexOf(" (class ");
		return source < 0 ? line : line.substring(0, source);
	}

	private static <T extends Throwable> T findCause(Throwable ex, Class<T> type) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (type.isInstance(t)) {
				return type.cast(t);
			}
		}
		return null;
	}
}
