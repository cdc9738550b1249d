package dev.perflab.gateway.web;

import java.util.LinkedHashMap;
import java.util.Map;

import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;

/** Writes the gateway's own errors as RFC 9457 problem details with a stable type. */
public final class Problems {

	public static final String BASE = "https://perflab.dev/problems/";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private Problems() {
	}

	public static Mono<Void> write(ServerHttpResponse response, HttpStatus status, String slug, String detail,
			String instance) {
		if (response.isCommitted()) {
			return Mono.empty();
		}
		response.setStatusCode(status);
		response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", BASE + slug);
		problem.put("title", status.getReasonPhrase());
		problem.put("status", status.value());
		problem.put("detail", detail);
		problem.put("instance", instance);
		byte[] bytes = JSON.writeValueAsBytes(problem);
		response.getHeaders().setContentLength(bytes.length);
		return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
	}
}
