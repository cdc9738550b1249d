package dev.perflab.platform;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentityVerifier;
import dev.perflab.identity.InvalidIdentityException;
import dev.perflab.identity.VerifiedIdentity;

/**
 * Resolves {@link Caller} and {@link ServiceCaller} from the {@code X-Perflab-Identity} token alone: a pod that
 * reaches a service without passing the gateway cannot make itself anyone (seed reports' services trusted a plain
 * user header). Every refusal is a problem+json 401/403, never a 500.
 */
class CallerArgumentResolver implements HandlerMethodArgumentResolver {

	private static final Logger log = LoggerFactory.getLogger(CallerArgumentResolver.class);

	private static final Pattern SANE = Pattern.compile("[A-Za-z0-9._@+-]{1,128}");

	static final String VERIFIED = CallerArgumentResolver.class.getName() + ".verified";

	private final ObjectProvider<IdentityVerifier> verifier;

	CallerArgumentResolver(ObjectProvider<IdentityVerifier> verifier) {
		this.verifier = verifier;
	}

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return parameter.getParameterType() == Caller.class || parameter.getParameterType() == ServiceCaller.class;
	}

	@Override
	public Object resolveArgument(MethodParameter parameter, ModelAndViewContainer mav, NativeWebRequest request,
			WebDataBinderFactory binderFactory) {
		VerifiedIdentity identity = verified(request);
		if (parameter.getParameterType() == Caller.class) {
			return user(identity);
		}
		ServiceCaller caller = service(identity, parameter);
		BoundRequests.check(identity, request, parameter);
		return caller;
	}

	private static Caller user(VerifiedIdentity identity) {
		if (!Identity.GATEWAY.equals(identity.issuer())) {
			throw unauthenticated("This API acts for a user: it takes identities signed by the gateway only, not by "
					+ identity.issuer());
		}
		String office = identity.office();
		if (office == null || !SANE.matcher(identity.subject()).matches() || !SANE.matcher(office).matches()) {
			throw unauthenticated("The identity names no valid user and office");
		}
		return new Caller(identity.subject(), office);
	}

	private static ServiceCaller service(VerifiedIdentity identity, MethodParameter parameter) {
		String name = identity.subject();
		// a service signs for itself only: perflab-mail may say "mail", never "send" or a user
		if (Identity.GATEWAY.equals(identity.issuer()) || !identity.issuer().equals("perflab-" + name)) {
			throw new ProblemException(HttpStatus.FORBIDDEN, "forbidden",
					"This endpoint takes calls from services only, not from " + identity.issuer() + " for " + name);
		}
		CalledBy allowed = parameter.getParameterAnnotation(CalledBy.class);
		if (allowed != null && !Arrays.asList(allowed.value()).contains(name)) {
			throw new ProblemException(HttpStatus.FORBIDDEN, "forbidden",
					"This endpoint takes calls from " + List.of(allowed.value()) + " only, not from " + name);
		}
		return new ServiceCaller(name);
	}

	private VerifiedIdentity verified(NativeWebRequest request) {
		Object known = request.getAttribute(VERIFIED, RequestAttributes.SCOPE_REQUEST);
		if (known instanceof VerifiedIdentity identity) {
			return identity;
		}
		String token = request.getHeader(Identity.HEADER);
		if (token == null || token.isBlank()) {
			throw unauthenticated("No verified caller: call this API through the gateway with a bearer token");
		}
		IdentityVerifier verifier = this.verifier.getIfAvailable();
		if (verifier == null) {
			throw unauthenticated("This service trusts no identity issuer (perflab.identity.trusted is empty)");
		}
		try {
			VerifiedIdentity identity = verifier.verify(token.strip());
			request.setAttribute(VERIFIED, identity, RequestAttributes.SCOPE_REQUEST);
			return identity;
		}
		catch (InvalidIdentityException e) {
			log.debug("refused {}: {}", Identity.HEADER, e.getMessage());
			throw unauthenticated("The " + Identity.HEADER + " token proves nothing: " + e.getMessage());
		}
	}

	private static ProblemException unauthenticated(String detail) {
		return new ProblemException(HttpStatus.UNAUTHORIZED, "unauthenticated", detail);
	}
}
