package dev.perflab.mail.send;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The send request's trace, carried through the outbox: the relay pushes on a pool thread after the commit, long
 * after the request's span ended, so the row keeps its W3C {@code traceparent} and the push continues that trace
 * (and its sampling decision) instead of starting an unrelated one.
 */
@Component
class RelayTraces {

	private static final String TRACEPARENT = "traceparent";

	private final Tracer tracer;

	private final Propagator propagator;

	@Autowired
	RelayTraces(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
		this(tracer.getIfAvailable(() -> Tracer.NOOP), propagator.getIfAvailable(() -> Propagator.NOOP));
	}

	RelayTraces(Tracer tracer, Propagator propagator) {
		this.tracer = tracer;
		this.propagator = propagator;
	}

	/** @return the current span's traceparent, or null with no span or tracing off */
	String current() {
		Span span = tracer.currentSpan();
		if (span == null) {
			return null;
		}
		Map<String, String> carrier = new HashMap<>();
		propagator.inject(span.context(), carrier, Map::put);
		return carrier.get(TRACEPARENT);
	}

	/** Starts the span of one push, a child of {@code traceparent} when the row carries one. */
	Span push(long outboxId, String traceparent) {
		Span.Builder builder = traceparent == null ? tracer.spanBuilder()
				: propagator.extract(Map.of(TRACEPARENT, traceparent), Map::get);
		return builder.name("outbox push").tag("perflab.outbox.id", String.valueOf(outboxId)).start();
	}

	Tracer.SpanInScope inScope(Span span) {
		return tracer.withSpan(span);
	}
}
