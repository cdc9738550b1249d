package dev.perflab.platform;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/** Builds RFC 9457 problem details whose {@code type} is stable, so clients can switch on it. */
public final class Problems {

	public static final String BASE = "https://perflab.dev/problems/";

	private Problems() {
	}

	public static ProblemDetail of(HttpStatusCode status, String slug, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(BASE + slug));
		return problem;
	}

	/** One entry of a 400's {@code errors: [{field, message}]}: the field as it is named on the wire. */
	public static Map<String, String> fieldError(String field, String message) {
		Map<String, String> error = new LinkedHashMap<>();
		error.put("field", field);
		error.put("message", message);
		return error;
	}
}
