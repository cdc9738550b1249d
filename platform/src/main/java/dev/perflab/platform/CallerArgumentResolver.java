package dev.perflab.platform;

import java.util.regex.Pattern;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

class CallerArgumentResolver implements HandlerMethodArgumentResolver {

	private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._@+-]{1,128}");

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return parameter.getParameterType() == Caller.class;
	}

	@Override
	public Caller resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
			WebDataBinderFactory binderFactory) {
		String user = request.getHeader(Caller.USER_HEADER);
		String office = request.getHeader(Caller.OFFICE_HEADER);
		if (user == null || office == null || !SANE.matcher(user).matches() || !SANE.matcher(office).matches()) {
			throw new ProblemException(HttpStatus.UNAUTHORIZED, "unauthenticated",
					"No verified caller: call this API through the gateway with a bearer token");
		}
		return new Caller(user, office);
	}
}
