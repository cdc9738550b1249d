package dev.perflab.platform;

import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultMatcher;

import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** A MockMvc answer that is a problem+json of the platform's: this status, this {@link Problems#BASE} type, a title. */
public final class ProblemMatchers {

	private ProblemMatchers() {
	}

	public static ResultMatcher problem(int status, String slug) {
		return result -> {
			status().is(status).match(result);
			content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON).match(result);
			jsonPath("$.type").value(Problems.BASE + slug).match(result);
			jsonPath("$.status").value(status).match(result);
			jsonPath("$.title").isNotEmpty().match(result);
		};
	}
}
