package dev.perflab.platform;

import java.io.IOException;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;

import org.springframework.web.filter.OncePerRequestFilter;

/** Carries the gateway's {@code X-Request-Id} into every log line of the request and back to the caller. */
class RequestIdFilter extends OncePerRequestFilter {

	static final String HEADER = "X-Request-Id";

	private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String id = request.getHeader(HEADER);
		if (id == null || !SANE.matcher(id).matches()) {
			id = UUID.randomUUID().toString();
		}
		response.setHeader(HEADER, id);
		MDC.put("requestId", id);
		try {
			chain.doFilter(request, response);
		}
		finally {
			MDC.remove("requestId");
		}
	}
}
