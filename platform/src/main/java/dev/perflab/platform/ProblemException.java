package dev.perflab.platform;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** A refusal the caller can act on: carries its status and stable problem type. */
public class ProblemException extends ErrorResponseException {

	public ProblemException(HttpStatus status, String slug, String detail) {
		super(status, Problems.of(status, slug, detail), null);
	}

	public static ProblemException notFound(String detail) {
		return new ProblemException(HttpStatus.NOT_FOUND, "not-found", detail);
	}

	public static ProblemException badRequest(String slug, String detail) {
		return new ProblemException(HttpStatus.BAD_REQUEST, slug, detail);
	}

	/**
	 * One field refused by the service's own rules: 400 {@code invalid-field} naming it in
	 * {@code errors: [{field, message}]}, as a body that does not bind is answered.
	 */
	public static ProblemException invalidField(String field, String message) {
		ProblemException refused = badRequest("invalid-field", field + " " + message);
		refused.getBody().setProperty("errors", List.of(Problems.fieldError(field, message)));
		return refused;
	}

	public ProblemDetail problem() {
		return getBody();
	}
}
