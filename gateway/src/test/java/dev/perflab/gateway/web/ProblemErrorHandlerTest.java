package dev.perflab.gateway.web;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An aborted connection is the client's only once an answer has begun; before that it is the service's (a pooled
 * connection it closed as the request was sent on it, when it stopped), and the caller is told so.
 */
class ProblemErrorHandlerTest {

	private final ProblemErrorHandler handler = new ProblemErrorHandler();

	@Test
	void aConnectionToTheServiceAbortedBeforeAnyAnswerIsA503ProblemNotAnEmpty200() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/v1/routes/7/points"));
		handler.handle(exchange, new AbortedException("Connection has been closed BEFORE send operation")).block();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("1");
		assertThat(exchange.getResponse().getHeaders().getContentType()).hasToString("application/problem+json");
		assertThat(exchange.getResponse().getBodyAsString().block()).contains("upstream-unavailable");
	}

	@Test
	void aClientGoneMidAnswerIsLeftAlone() {
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/v1/routes/7/points"));
		exchange.getResponse().setStatusCode(HttpStatus.OK);
		exchange.getResponse().setComplete().block();
		handler.handle(exchange, new AbortedException("Connection has been closed")).block();
		assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(exchange.getResponse().getBodyAsString().block()).isEmpty();
	}
}
