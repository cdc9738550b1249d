package dev.perflab.load.lib;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * One service's SLOs, stated once in {@code slo/<service>.json} (milliseconds; p95, p99: the percentile's limit;
 * {@code scenarios}: what one scenario states instead), the shared failed and checks limits from
 * {@code slo/shared.json} unless the service states its own.
 */
public final class Slo {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final String service;

	private final JsonNode slo;

	private final JsonNode shared;

	private Slo(String service, JsonNode slo, JsonNode shared) {
		this.service = service;
		this.slo = slo;
		this.shared = shared;
	}

	public static Slo of(String service) {
		return new Slo(service, read("slo/" + service + ".json"), read("slo/shared.json"));
	}

	private static JsonNode read(String resource) {
		try (InputStream in = Slo.class.getClassLoader().getResourceAsStream(resource)) {
			if (in == null) {
				throw new IllegalStateException("no " + resource + " on the class path");
			}
			return JSON.readTree(in);
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot read " + resource, ex);
		}
	}

	/** The largest share of failed requests allowed. */
	public double failed() {
		return limit("failed");
	}

	/** The smallest share of passed checks allowed. */
	public double checks() {
		return limit("checks");
	}

	private double limit(String key) {
		return (this.slo.has(key) ? this.slo : this.shared).path(key).asDouble();
	}

	/**
	 * {@code ["p(95)<100", "p(99)<250"]} of one endpoint; what the SLO states for {@code scenario} (its key under
	 * {@code scenarios}, e.g. {@code mail/send}) replaces the endpoint's own.
	 */
	public List<String> latency(String endpoint, String scenario) {
		JsonNode stated = this.slo.path("endpoints").path(endpoint);
		if (stated.isMissingNode()) {
			List<String> known = new ArrayList<>();
			this.slo.path("endpoints").fieldNames().forEachRemaining(known::add);
			throw new IllegalArgumentException("no SLO for " + endpoint + " in " + this.service + ": one of " + known);
		}
		JsonNode own = scenario == null ? null : stated.path("scenarios").get(scenario);
		List<String> rules = new ArrayList<>();
		for (Iterator<Map.Entry<String, JsonNode>> it = stated.fields(); it.hasNext();) {
			Map.Entry<String, JsonNode> e = it.next();
			if (e.getKey().matches("p\\d+")) {
				JsonNode value = own != null && own.has(e.getKey()) ? own.get(e.getKey()) : e.getValue();
				rules.add("p(" + e.getKey().substring(1) + ")<" + value.asText());
			}
		}
		return rules;
	}

}
