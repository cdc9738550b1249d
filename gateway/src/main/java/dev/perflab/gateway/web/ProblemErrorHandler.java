package dev.perflab.gateway.web;

import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.boot.webflux.error.ErrorWebExceptionHandler;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/** Errors the gateway itself raises leave as problem+json: no HTML page, no stack trace. */
@Component
@Order(-2)
class ProblemErrorHandler implements ErrorWebExceptionHandler {

	private static final Logger log = LoggerFactory.getLogger(ProblemErrorHandler.class);

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
		String path = exchange.getRequest().getPath().value();
		if (ex instanceof reactor.netty.channel.AbortedException && exchange.getResponse().isCommitted()) {
			// the client went away mid-answer: nothing to tell it, nothing wrong here. (Before any answer began, an
			// aborted connection is the service's: a pooled connection it closed as the request was sent, below. Taken
			// for the client's, it ended the exchange with no status and no body: a 200 with an empty body.)
			return Mono.empty();
		}
		if (exchange.getResponse().isCommitted()) {
			// an answer under way cannot become a problem: its connection is closed without the answer's end, so the
			// caller sees it cut (ending it instead would pass a service's half body off as whole)
			log.warn("{} cut: the answer broke off after it had begun ({})", LoggedPath.of(path), ex.toString());
			return Mono.error(ex);
		}
		if (ex instanceof ResponseStatusException status) {
			HttpStatus code = HttpStatus.resolve(status.getStatusCode().value());
			code = code == null ? HttpStatus.INTERNAL_SERVER_ERROR : code;
			String slug = code == HttpStatus.NOT_FOUND ? "not-found"
					: code == HttpStatus.SERVICE_UNAVAILABLE ? "upstream-unavailable"
							: code == HttpStatus.GATEWAY_TIMEOUT ? "upstream-timeout" : "http-" + code.value();
			String detail = code == HttpStatus.NOT_FOUND ? "No route for " + path
					: status.getReason() == null ? code.getReasonPhrase() : status.getReason();
			return Problems.write(exchange.getResponse(), code, slug, detail, path);
		}
		if (causedBy(ex, TimeoutException.class) || causedBy(ex, io.netty.handler.timeout.ReadTimeoutException.class)) {
			return Problems.write(exchange.getResponse(), HttpStatus.GATEWAY_TIMEOUT, "upstream-timeout",
					"The service did not answer in time", path);
		}
		if (ReadRetryFilter.unreachable(ex)) {
			// a pod coming back or being replaced: worth asking again shortly
			log.info("{} {}: the service is not reachable ({}), answered 503 request_id={}", exchange.getRequest().getMethod(),
					LoggedPath.of(path), ReadRetryFilter.cause(ex), exchange.getAttributes().get(RequestIdFilter.ATTRIBUTE));
			exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
			return Problems.write(exchange.getResponse(), HttpStatus.SERVICE_UNAVAILABLE, "upstream-unavailable",
					"The service is not reachable; retry later", path);
		}
		log.error("unexpected gateway failure on {}", LoggedPath.of(path), ex);
		return Problems.write(exchange.getResponse(), HttpStatus.INTERNAL_SERVER_ERROR, "internal",
				"The gateway failed to answer; retry later", path);
	}

	private static boolean causedBy(Throwable ex, Class<? extends Throwable> type) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (type.isInstance(t)) {
				return true;
			}
		}
		return false;
	}
}
