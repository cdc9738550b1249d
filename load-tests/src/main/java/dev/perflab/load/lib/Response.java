package dev.perflab.load.lib;

import java.io.IOException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.threads.JMeterContextService;

/**
 * A request's answer as a check or a counter reads it: status, headers (case-insensitive), body, JSON, and the
 * iteration's variables.
 */
public final class Response {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final SampleResult result;

	private JsonNode json;

	Response(SampleResult result) {
		this.result = result;
	}

	/** The HTTP status, 0 when none came (the connection failed). */
	public int status() {
		try {
			return Integer.parseInt(this.result.getResponseCode());
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/** The first value of a response header, "" when there is none. */
	public String header(String name) {
		for (String line : this.result.getResponseHeaders().split("\r?\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
				return line.substring(colon + 1).trim();
			}
		}
		return "";
	}

	public String body() {
		return this.result.getResponseDataAsString();
	}

	/** A field of the JSON body (MissingNode when the body is not JSON or lacks it). */
	public JsonNode json(String field) {
		if (this.json == null) {
			try {
				this.json = JSON.readTree(this.result.getResponseData());
			}
			catch (IOException ex) {
				this.json = MissingNode.getInstance();
			}
			if (this.json == null) {
				this.json = MissingNode.getInstance();
			}
		}
		return this.json.path(field);
	}

	/** A variable of the iteration (what an earlier step kept). */
	public String var(String name) {
		return JMeterContextService.getContext().getVariables().get(name);
	}

}
