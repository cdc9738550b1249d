package dev.perflab.platform;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.util.Arrays;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpStatus;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentitySigner;
import dev.perflab.identity.VerifiedIdentity;

/**
 * A service's call is good for the one request its token was signed for ({@link IdentitySigner#signRequest}): the
 * method, the path and the SHA-256 of the body must be this request's, or the call is refused with 401. A token
 * captured inside the cluster can then only repeat its own call (idempotent by its path: send's job id), never create
 * another job with another sender. The body is checked where it is read: this advice reads it whole, digests it and
 * hands the same bytes on to the converter; a handler that reads no body is checked against the empty one.
 */
@ControllerAdvice
final class BoundRequests extends RequestBodyAdviceAdapter {

	private static final String BODY_DIGEST = BoundRequests.class.getName() + ".bodyDigest";

	/** The token's method and path against this request's, and its body digest once the body is known. */
	static void check(VerifiedIdentity identity, NativeWebRequest request, MethodParameter parameter) {
		VerifiedIdentity.Request bound = identity.request();
		if (bound == null) {
			throw unauthenticated("A service's token must be bound to its request (claims " + Identity.METHOD + ", "
					+ Identity.PATH + ", " + Identity.BODY_DIGEST + "): sign it for this call");
		}
		HttpServletRequest http = request.getNativeRequest(HttpServletRequest.class);
		if (http == null || !bound.method().equals(http.getMethod()) || !bound.path().equals(http.getRequestURI())) {
			throw unauthenticated("The token was signed for another request");
		}
		Object digest = request.getAttribute(BODY_DIGEST, RequestAttributes.SCOPE_REQUEST);
		if (digest == null && !readsBody(parameter)) {
			digest = digest(http);
		}
		if (digest != null && !bound.bodyDigest().equals(digest)) {
			throw unauthenticated("The token was signed for another body");
		}
	}

	@Override
	public boolean supports(MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) {
		return Arrays.stream(parameter.getMethod().getParameterTypes()).anyMatch(ServiceCaller.class::equals);
	}

	@Override
	public HttpInputMessage beforeBodyRead(HttpInputMessage input, MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) throws IOException {
		byte[] body = input.getBody().readAllBytes();
		String digest = IdentitySigner.digest(body);
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes != null) {
			attributes.setAttribute(BODY_DIGEST, digest, RequestAttributes.SCOPE_REQUEST);
			// the caller resolved before the body (its parameter first): its token is checked against the body here
			if (attributes.getAttribute(CallerArgumentResolver.VERIFIED,
					RequestAttributes.SCOPE_REQUEST) instanceof VerifiedIdentity identity && identity.request() != null
					&& !identity.request().bodyDigest().equals(digest)) {
				throw unauthenticated("The token was signed for another body");
			}
		}
		HttpHeaders headers = input.getHeaders();
		return new HttpInputMessage() {
			@Override
			public InputStream getBody() {
				return new ByteArrayInputStream(body);
			}

			@Override
			public HttpHeaders getHeaders() {
				return headers;
			}
		};
	}

	private static boolean readsBody(MethodParameter parameter) {
		return Arrays.stream(parameter.getMethod().getParameterAnnotations())
			.flatMap(Arrays::stream)
			.anyMatch(RequestBody.class::isInstance);
	}

	private static @Nullable String digest(HttpServletRequest http) {
		try {
			return IdentitySigner.digest(http.getInputStream().readAllBytes());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static ProblemException unauthenticated(String detail) {
		return new ProblemException(HttpStatus.UNAUTHORIZED, "unauthenticated", detail);
	}
}
