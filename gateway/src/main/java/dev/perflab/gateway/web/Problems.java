package dev.perflab.gateway.web;

import java.nio.charset.StandardCharsets;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;

/** Writes the gateway's own errors as RFC 9457 problem details with a stable type. */
public final class Problems {

	public static final String BASE = "https://perflab.dev/problems/";

	private Problems() {
	}

	public static Mono<Void> write(ServerHttpResponse response, HttpStatus status, String slug, String detail,
			String instance) {
		if (response.isCommitted()) {
			return Mono.empty();
		}
		response.setStatusCode(status);
		response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		String body = "{\"type\":\"" + BASE + slug + "\",\"title\":\"" + status.getReasonPhrase() + "\",\"status\":"
				+ status.value() + ",\"detail\":\"" + escape(detail) + "\",\"instance\":\"" + escape(instance) + "\"}";
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		response.getHeaders().setContentLength(bytes.length);
		return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
	}

	private static String escape(String s) {
		StringBuilder out = new StringBuilder(s.length());
		for (char c : s.toCharArray()) {
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				default -> out.append(c < 0x20 ? ' ' : c);
			}
		}
		return out.toString();
	}
}
