package dev.perflab.platform;

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

	public ProblemDetail problem() {
		return getBody();
	}
}
