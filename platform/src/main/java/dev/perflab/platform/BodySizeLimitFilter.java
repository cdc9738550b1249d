package dev.perflab.platform;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses bodies over the limit with 413 before they are parsed: by Content-Length up front, and by counting
 * bytes for chunked bodies that lie about (or omit) their length.
 */
class BodySizeLimitFilter extends OncePerRequestFilter {

	private final long limit;

	BodySizeLimitFilter(long limit) {
		this.limit = limit;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > limit) {
			response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.getOutputStream().write("""
					{"type":"%spayload-too-large","title":"Content Too Large","status":413,"detail":"The request body is larger than %d bytes"}"""
				.formatted(Problems.BASE, limit).getBytes(java.nio.charset.StandardCharsets.UTF_8));
			return;
		}
		chain.doFilter(new Limited(request, limit), response);
	}

	private static final class Limited extends HttpServletRequestWrapper {

		private final long limit;

		private ServletInputStream stream;

		Limited(HttpServletRequest request, long limit) {
			super(request);
			this.limit = limit;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (stream == null) {
				stream = new CountingStream(super.getInputStream(), limit);
			}
			return stream;
		}
	}

	private static final class CountingStream extends ServletInputStream {

		private final ServletInputStream delegate;

		private final long limit;

		private long count;

		CountingStream(ServletInputStream delegate, long limit) {
			this.delegate = delegate;
			this.limit = limit;
		}

		@Override
		public int read() throws IOException {
			int b = delegate.read();
			if (b >= 0) {
				add(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int n = delegate.read(buffer, offset, length);
			if (n > 0) {
				add(n);
			}
			return n;
		}

		private void add(int n) throws PayloadTooLargeException {
			count += n;
			if (count > limit) {
				throw new PayloadTooLargeException(limit);
			}
		}

		@Override
		public boolean isFinished() {
			return delegate.isFinished();
		}

		@Override
		public boolean isReady() {
			return delegate.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			delegate.setReadListener(listener);
		}
	}
}
