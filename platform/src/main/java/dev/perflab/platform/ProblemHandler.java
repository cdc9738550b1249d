package dev.perflab.platform;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.PropertyNamingStrategy;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.PropertyBindingException;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
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
 * caller can fix, and an unexpected failure is a 500 without a stack trace. A body that is valid JSON but does not fit
 * the endpoint (a field missing, of the wrong type, or unknown) names each field in {@code errors: [{field, message}]}
 * with the field's name as it is on the wire, so a caller is never told that valid JSON is not JSON.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class ProblemHandler extends ResponseEntityExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

	/**
	 * Failures that mean "the store is not there" rather than "this request is wrong", by class name (a service has
	 * only some of the drivers): Spring's data-access translations of a lost or refused connection, JDBC's transient
	 * and connection failures, and the MongoDB driver's timeouts and socket failures when they arrive untranslated.
	 */
	private static final Set<String> STORE_FAILURES = Set.of(
			"org.springframework.dao.DataAccessResourceFailureException",
			"org.springframework.dao.TransientDataAccessException", "org.springframework.dao.RecoverableDataAccessException",
			"java.sql.SQLTransientException", "java.sql.SQLNonTransientConnectionException",
			"java.sql.SQLRecoverableException", "com.mongodb.MongoTimeoutException", "com.mongodb.MongoSocketException");

	/** how the service's JSON names a record component ({@code senderNo} → {@code sender_no}); null: as in Java */
	private final PropertyNamingStrategy naming;

	ProblemHandler(PropertyNamingStrategy naming) {
		this.naming = naming;
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		if (findCause(ex, PayloadTooLargeException.class) != null) {
			return problem(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large",
					findCause(ex, PayloadTooLargeException.class).getMessage());
		}
		PropertyBindingException unknown = findCause(ex, PropertyBindingException.class);
		if (unknown != null) {
			String field = path(unknown);
			return fieldProblem("unknown-field", "Unknown field: " + field,
					List.of(error(field, "is not a field of this request")));
		}
		MismatchedInputException mismatch = findCause(ex, MismatchedInputException.class);
		if (mismatch != null && !mismatch.getPath().isEmpty()) {
			String field = path(mismatch);
			return fieldProblem("invalid-field", "The request has missing or invalid fields",
					List.of(error(field, expectation(mismatch))));
		}
		return problem(HttpStatus.BAD_REQUEST, "malformed-body", "The request body is not valid JSON for this endpoint");
	}

	@Override
	protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<Map<String, String>> errors = new ArrayList<>();
		ex.getBindingResult().getFieldErrors()
			.forEach(e -> errors.add(error(wireName(e.getField()), String.valueOf(e.getDefaultMessage()))));
		ex.getBindingResult().getGlobalErrors()
			.forEach(e -> errors.add(error(e.getObjectName(), String.valueOf(e.getDefaultMessage()))));
		return fieldProblem("invalid-field", "The request has missing or invalid fields", errors);
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
			return unavailable(1, "overloaded",
					"The service is saturated (no database connection available); retry shortly");
		}
		Throwable store = storeFailure(ex);
		if (store != null) {
			// a store that is down or unreachable (MariaDB, MongoDB, Redis): the request did not happen; the caller may
			// retry once the store is back, and readiness already tells the load balancer
			log.warn("a store is unavailable: {}", store.toString());
			return unavailable(5, "store-unavailable", "A store this service needs is unavailable; retry shortly");
		}
		log.error("unexpected failure", ex);
		return problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "The service failed to answer; retry later");
	}

	/** 503: the request did not happen, and may be sent again after {@code retryAfterSeconds} */
	private static ResponseEntity<Object> unavailable(int retryAfterSeconds, String slug, String detail) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, Integer.toString(retryAfterSeconds))
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(Problems.of(HttpStatus.SERVICE_UNAVAILABLE, slug, detail));
	}

	/**
	 * A statement on a connection HikariCP had already closed because it broke ("Connection is closed", no SQLState):
	 * what a rollback meets after a socket timeout during the transaction (route's create while MariaDB froze).
	 */
	private static boolean closedByThePool(java.sql.SQLException sql) {
		StackTraceElement[] frames = sql.getStackTrace();
		return "Connection is closed".equals(sql.getMessage()) && frames.length > 0
				&& java.util.Arrays.stream(frames, 0, Math.min(3, frames.length))
					.anyMatch(frame -> frame.getClassName().startsWith("com.zaxxer.hikari.pool.ProxyConnection"));
	}

	/**
	 * The store failure in {@code ex}'s causes, or null. Besides the classes above, any JDBC failure of SQLState class
	 * 08 (a connection exception), whatever its class: a MySQL connection lost mid-transaction fails the rollback too,
	 * with a plain {@link java.sql.SQLException} ("Communications link failure during rollback()", 08007) or, once the
	 * pool closed the broken connection, HikariCP's "Connection is closed"; Spring reports that rollback failure with
	 * the first failure only beside it ({@code TransactionSystemException}) or not at all (JPA's).
	 */
	static Throwable storeFailure(Throwable ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
				if (STORE_FAILURES.contains(c.getName())) {
					return t;
				}
			}
			if (t instanceof java.sql.SQLException sql && (sql.getSQLState() != null && sql.getSQLState().startsWith("08")
					|| closedByThePool(sql))) {
				return t;
			}
			if (t instanceof org.springframework.transaction.TransactionSystemException rollback
					&& rollback.getApplicationException() != null) {
				Throwable first = storeFailure(rollback.getApplicationException());
				if (first != null) {
					return first;
				}
			}
		}
		return null;
	}

	/**
	 * A problem is written as problem+json whatever the request's {@code Accept} said: negotiated against
	 * {@code Accept: application/xml} (which no converter writes) it left as a bare status without a body.
	 */
	@Override
	protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		HttpHeaders problemHeaders = new HttpHeaders();
		problemHeaders.addAll(headers);
		problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		return super.createResponseEntity(body, problemHeaders, statusCode, request);
	}

	private static ResponseEntity<Object> problem(HttpStatus status, String slug, String detail) {
		return ResponseEntity.status(status)
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.body(Problems.of(status, slug, detail));
	}

	private static ResponseEntity<Object> fieldProblem(String slug, String detail, List<Map<String, String>> errors) {
		ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, slug, detail);
		problem.setProperty("errors", errors);
		return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
	}

	private static Map<String, String> error(String field, String message) {
		return Problems.fieldError(field, message);
	}

	/** {@code to[0]}, {@code recipients[2].email}: Jackson's path already holds the names as they are on the wire */
	private static String path(JacksonException ex) {
		StringBuilder path = new StringBuilder();
		for (JacksonException.Reference ref : ex.getPath()) {
			if (ref.getPropertyName() != null) {
				path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
			}
			else if (ref.getIndex() >= 0) {
				path.append('[').append(ref.getIndex()).append(']');
			}
		}
		return path.isEmpty() ? "(body)" : path.toString();
	}

	/** Bean Validation names Java properties ({@code senderNo}, {@code to[0]}); the caller wrote {@code sender_no} */
	String wireName(String javaPath) {
		if (!(naming instanceof PropertyNamingStrategies.NamingBase base)) {
			// only the plain renaming strategies translate a name without the property's annotations
			return javaPath;
		}
		StringBuilder out = new StringBuilder();
		for (String segment : javaPath.split("\\.")) {
			int index = segment.indexOf('[');
			String name = index < 0 ? segment : segment.substring(0, index);
			out.append(out.isEmpty() ? "" : ".").append(base.nameForField(null, null, name)).append(index < 0 ? "" : segment.substring(index));
		}
		return out.toString();
	}

	private static String expectation(MismatchedInputException ex) {
		String message = String.valueOf(ex.getOriginalMessage());
		Class<?> type = ex.getTargetType();
		if (message.contains("null") && (type == null || type.isPrimitive())) {
			return "is required";
		}
		if (type == null) {
			return "has the wrong type";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "must be true or false";
		}
		if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != char.class)) {
			return "must be a number";
		}
		if (type == String.class || type == char.class || type.isEnum()) {
			return "must be a string";
		}
		if (type.isArray() || Collection.class.isAssignableFrom(type)) {
			return "must be an array";
		}
		return "must be an object";
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
