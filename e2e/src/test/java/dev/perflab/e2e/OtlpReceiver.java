package dev.perflab.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;

/**
 * A real OTLP/HTTP trace receiver (protobuf), where the local stack's services export
 * (management.opentelemetry.tracing.export.otlp.endpoint in their local profile).
 */
final class OtlpReceiver implements AutoCloseable {

	static final int PORT = Integer.parseInt(System.getenv().getOrDefault("PERFLAB_OTLP_PORT", "14318"));

	private final HttpServer server;

	private final ConcurrentLinkedQueue<Received> spans = new ConcurrentLinkedQueue<>();

	OtlpReceiver() throws IOException {
		server = HttpServer.create(new InetSocketAddress("127.0.0.1", PORT), 0);
		server.createContext("/v1/traces", this::export);
		server.start();
	}

	private void export(HttpExchange exchange) throws IOException {
		try (exchange; InputStream body = exchange.getRequestBody()) {
			ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
			for (ResourceSpans resource : request.getResourceSpansList()) {
				String service = resource.getResource().getAttributesList().stream()
					.filter(a -> a.getKey().equals("service.name"))
					.map(KeyValue::getValue)
					.map(v -> v.getStringValue())
					.findFirst()
					.orElse("?");
				for (ScopeSpans scope : resource.getScopeSpansList()) {
					scope.getSpansList().forEach(span -> spans.add(new Received(service, span)));
				}
			}
			byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
			exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
			exchange.sendResponseHeaders(200, answer.length);
			exchange.getResponseBody().write(answer);
		}
	}

	/** Every span received so far of one trace. */
	List<Received> trace(String traceId) {
		return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
	}

	/** The trace ids of every span received so far. */
	Set<String> traceIds() {
		return spans.stream().map(Received::traceId).collect(Collectors.toSet());
	}

	@Override
	public void close() {
		server.stop(0);
	}

	record Received(String service, io.opentelemetry.proto.trace.v1.Span span) {

		String traceId() {
			return HexFormat.of().formatHex(span.getTraceId().toByteArray());
		}

		String spanId() {
			return HexFormat.of().formatHex(span.getSpanId().toByteArray());
		}

		String parentId() {
			return HexFormat.of().formatHex(span.getParentSpanId().toByteArray());
		}

		boolean isServer() {
			return span.getKind() == io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_SERVER;
		}

		boolean isClient() {
			return span.getKind() == io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_CLIENT;
		}

		@Override
		public String toString() {
			return "%s %s %s %s parent %s".formatted(service, span.getKind(), span.getName(), spanId(), parentId());
		}
	}
}
