package dev.perflab.load.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import org.apache.jmeter.samplers.SampleResult;

/**
 * A request's answer as the reliability cases judge it: its status (0 when none came: no connection, a timeout, or a
 * body cut off, which JMeter reports without the status it had), its headers, its whole body, when it ended (ms since
 * the epoch) and how long it took (ms), and the error when no answer came.
 */
record Answer(int status, String headers, byte[] body, long endMillis, long millis, String error) {

	private static final ObjectMapper JSON = new ObjectMapper();

	static Answer of(SampleResult result) {
		int status;
		try {
			status = Integer.parseInt(result.getResponseCode());
		}
		catch (NumberFormatException ex) {
			status = 0;
		}
		// without an answer JMeter's body is its exception's stack trace, not anything the system sent
		return new Answer(status, result.getResponseHeaders(), status == 0 ? new byte[0] : result.getResponseData(),
				result.getEndTime(), result.getTime(), status == 0 ? result.getResponseMessage() : "");
	}

	/** The first value of a response header, "" when there is none. */
	String header(String name) {
		for (String line : this.headers.split("\r?\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
				return line.substring(colon + 1).trim();
			}
		}
		return "";
	}

	/** A field of the JSON body as text, "undefined" (as k6 printed it) when the body is not JSON or lacks it. */
	String json(String field) {
		try {
			JsonNode value = JSON.readTree(this.body);
			JsonNode node = value == null ? MissingNode.getInstance() : value.path(field);
			return node.isMissingNode() || node.isNull() ? "undefined" : node.asText();
		}
		catch (IOException ex) {
			return "undefined";
		}
	}

	/** The body's first {@code max} characters, as a warning shows it. */
	String text(int max) {
		String text = new String(this.body, StandardCharsets.UTF_8);
		return text.length() <= max ? text : text.substring(0, max);
	}

	/** Whether the body ends with {@code last}. */
	boolean endsWith(char last) {
		return this.body.length > 0 && this.body[this.body.length - 1] == last;
	}

}
