package dev.perflab.e2e;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Hostile requests for one operation of a service's OpenAPI document, each one that must be refused: malformed JSON,
 * wrong content types, bodies over the service's limit, fields over it, fields of the wrong type, numbers no field
 * takes, missing fields, injection-shaped field names, path ids and query parameters that are not what they should
 * be, and hostile negotiation headers. Free text in a field that takes free text is never sent: {@code ' OR 1=1}
 * is a fine route name, so its acceptance could not be told from a write by a refused request.
 */
final class HostileInputs {

	/** One operation the gateway routes: its method, path template, parameters and JSON body schema (or null). */
	record Operation(String service, String method, String path, List<Parameter> parameters, JsonNode body,
			long maxBody) {

		String name() {
			return method + " " + path;
		}

		boolean writes() {
			return !method.equals("GET") && !method.equals("HEAD");
		}
	}

	record Parameter(String name, String in, String type) {
	}

	/** One request: {@code target} is the encoded path and query; a null body sends none. */
	record Input(String category, String method, String target, String contentType, byte[] body, boolean chunked,
			Map<String, String> headers) {

		Input withTarget(String other) {
			return new Input(category, method, other, contentType, body, chunked, headers);
		}

		String describe() {
			String shown = body == null ? "" : new String(body, 0, Math.min(body.length, 120), StandardCharsets.UTF_8);
			return category + " " + method + " " + (target.length() > 160 ? target.substring(0, 160) + "..." : target)
					+ (contentType == null ? "" : " [" + contentType + "]") + (body == null ? "" : " " + body.length
							+ " bytes" + (chunked ? " chunked" : "") + ": " + shown.replaceAll("\\p{Cntrl}", "?"));
		}
	}

	private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

	private static final String PLACEHOLDER = "@@hostile-value@@";

	private static final Pattern TEMPLATE = Pattern.compile("\\{([^}/]+)}");

	/** Path values no id or code takes; encoded as one segment ({@code /} becomes %2F, which the edge refuses). */
	static final List<String> PATH_VALUES = List.of("abc", "0", "-1", "-9223372036854775808", "9223372036854775808",
			"-9223372036854775809", "99999999999999999999999999999999", "1e309", "-1e309", "NaN", "Infinity", "1.5",
			"0x10", "1 ", " 1", "1,2", "1;2", "' OR '1'='1", "1; DROP TABLE mail; --", "1' UNION SELECT NULL--",
			"{\"$gt\":\"\"}", "[$ne]=1", "$where", "..", "../..", "../../etc/passwd", "%2e%2e", "%00", "%", "%zz",
			"\r\nX-Injected: 1", "\u0000", "\u0007", "\u202E1", "\uFEFF1", "\u00851", "\uD83D\uDE001",
			"<script>alert(1)</script>", "${jndi:ldap://127.0.0.1/a}", "%s%n%x", "null", "true", "[]", "{}", "\\",
			"a".repeat(2000), "9".repeat(1000));

	/** Traversals with literal slashes: the path leaves the template, and must land nowhere. */
	static final List<String> RAW_PATH_VALUES = List.of("../../../etc/passwd", "..;/..;/internal/jobs/1",
			"%2e%2e/%2e%2e/internal/jobs/1", "1/../../../v2/mailboxes", "./1", "1/", "1//2");

	static final List<String> QUERY_NAMES = List.of("page", "size", "format", "sort", "cursor", "limit", "offset",
			"before", "after", "q");

	static final List<String> QUERY_VALUES = List.of("-1", "abc", "9223372036854775808", "-9223372036854775809",
			"1e309", "NaN", "Infinity", "1.5", "0x10", "", "' OR 1=1--", "{\"$gt\":\"\"}", "\r\nX-Injected: 1",
			"\u0000", "\u202E", "../../etc/passwd", "<script>", "a".repeat(3000), "9".repeat(500), "%", "null",
			"[]");

	static final List<Map<String, String>> HEADERS = List.of(Map.of("Accept", "application/xml"),
			Map.of("Accept", "text/html"), Map.of("Accept", "*/*;q=abc"), Map.of("Accept", "garbage/"),
			Map.of("Accept", "application/json;q=0"), Map.of("Accept-Encoding", "gzip;q=1.2.3"),
			Map.of("Accept-Encoding", "gzip;q=NaN"), Map.of("Accept-Encoding", "gzip;q="),
			Map.of("If-None-Match", "\""), Map.of("If-Modified-Since", "yesterday"), Map.of("Range", "bytes=-1"),
			Map.of("Range", "bytes=99999999999999999999-"), Map.of("Range", "bytes=5-1"), Map.of("Range", "bytes=a-b"),
			Map.of("X-Request-Id", "a".repeat(500)), Map.of("X-Forwarded-For", "' OR 1=1--"),
			Map.of("X-Perflab-Identity", "forged"), Map.of("Origin", "null"),
			// forwarded headers from a client that is no trusted proxy: never believed
			Map.of("X-Forwarded-Prefix", "/v1/short-links"), Map.of("X-Forwarded-Host", "evil.example"),
			Map.of("X-Forwarded-Proto", "gopher"), Map.of("Forwarded", "for=\"[::1]\";proto=https;host=evil.example"));

	/** Address fields (by name) of a body: mail's recipients, the notifier's sign-up email. */
	static final Pattern ADDRESS_FIELD = Pattern.compile("to|cc|bcc|email|address|recipients?");

	/** Addresses no service takes: every address is bare printable ASCII, one rule (platform MailAddress). */
	static final List<String> ADDRESSES = List.of("tom@ex\u00e4mple.com", "t\u00f6m@example.com", "tom@[\u00fc]",
			"tom\u0085@example.com", "tom@example.com\u00a0", "\u202Etom@example.com", "tom@\uD83D\uDE00.com",
			"tom@xn--e-\u00e4.com", " tom@example.com", "tom@example.com ", "\"tom b\"@example.com",
			"Tom <tom@example.com>", "tom@example.com, jerry@example.com", "a".repeat(250) + "@example.com",
			"tom@example.com\r\nBcc: x@example.com", "tom", "@example.com", "tom@");

	/** Bodies that are not JSON; {@code %s} is a field of the endpoint, so the parser gets as far as its value. */
	static final List<String> MALFORMED = List.of("", " ", "{", "}", "[", "{\"%s\"", "{\"%s\":}", "{\"%s\":,}",
			"{,}", "{\"%s\":1,}", "nul", "tru", "{} {}", "{}garbage", "\"unterminated", "{'%s':'x'}", "{%s:1}",
			"// comment\n{}", "/* comment */{}", "{\"%s\":NaN}", "{\"%s\":Infinity}", "{\"%s\":-Infinity}",
			"{\"%s\":0x10}", "{\"%s\":01}", "{\"%s\":1e}", "{\"%s\":\"\\u12\"}", "{\"%s\":\"\\x41\"}",
			"{\"%s\":\"a\u0000b\"}", "{\"%s\":\"\r\n\"}", "[".repeat(5000) + "]".repeat(5000),
			"{\"%s\":" + "[".repeat(3000) + "]".repeat(3000) + "}", "\uFEFF{}", "<xml/>", "%s=1&b=2");

	/** Whole bodies that are JSON but no object. */
	static final List<String> NOT_AN_OBJECT = List.of("null", "0", "-1", "9223372036854775808", "1e309", "\"text\"",
			"true", "[]", "[{}]");

	static final List<String> CONTENT_TYPES = List.of("text/plain", "application/xml", "text/html",
			"application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/octet-stream",
			"application/javascript", "application/merge-patch+json", "application/problem+json", "application/jsonx",
			"text/json", "*/*", "application/json; charset=nope", "json");

	/** Field names no request takes (unknown fields are refused): injection shapes, as names. */
	static final List<String> FIELD_NAMES = List.of("' OR '1'='1", "$gt", "$where", "$ne", "__proto__",
			"constructor", "../../etc/passwd", "a\r\nX-Injected: 1", "\u0000", "\u202E", "\uD83D\uDE00", "",
			"id", "office", "${jndi:ldap://127.0.0.1/a}");

	/** Values no string field takes: operators, arrays, objects. */
	static final List<String> FOR_STRINGS = List.of("{\"$gt\":\"\"}", "{\"$ne\":null}", "[\"x\"]", "[]", "{}",
			"[{\"$gt\":\"\"}]");

	/** Values no number field takes: text, structures, numbers out of every range, literals JSON does not have. */
	static final List<String> FOR_NUMBERS = List.of("\"abc\"", "{\"$gt\":0}", "[1]", "{}", "\"1e309\"",
			"9223372036854775808", "-9223372036854775809", "1e309", "-1e309", "NaN", "Infinity", "-Infinity", "0x10",
			"1e400000000", "1".repeat(2000));

	static final List<String> FOR_BOOLEANS = List.of("\"yes\"", "{\"$gt\":\"\"}", "[]", "{}", "1e309");

	static final List<String> FOR_DATES = List.of("\"not-a-date\"", "\"2024-13-45T99:99:99Z\"",
			"\"' OR 1=1--\"", "1e309", "9223372036854775808", "-9223372036854775809", "{\"$gt\":\"\"}", "[]");

	static final List<String> FOR_ARRAYS = List.of("\"x\"", "1", "{\"$gt\":\"\"}", "{}", "[[[]]]", "[{\"$gt\":\"\"}]");

	static final List<String> FOR_OBJECTS = List.of("\"x\"", "1", "[]", "[{}]", "true");

	private HostileInputs() {
	}

	/**
	 * The inputs for {@code operation}; {@code existing} names real path values (a route id, a link code) that a read
	 * uses for the parameters it does not break, so a hostile query or header reaches past the lookup.
	 */
	static List<Input> of(Operation operation, JsonNode document, Map<String, String> existing) {
		Schemas schemas = new Schemas(document);
		List<Input> inputs = new ArrayList<>();
		// a write is never pointed at something real: a hostile header on a real DELETE would delete
		Map<String, String> real = operation.writes() ? Map.of() : existing;
		String base = fill(operation.path(), real);
		// a write's path, query and headers go with a body that is refused too ({}), so none of them can write
		byte[] refusedBody = operation.body() == null ? null : bytes("{}");
		String bodyType = operation.body() == null ? null : "application/json";
		for (Parameter parameter : operation.parameters()) {
			if (parameter.in().equals("path")) {
				for (String value : PATH_VALUES) {
					inputs.add(new Input("path " + parameter.name(), operation.method(),
							fill(operation.path(), with(real, parameter.name(), encode(value))), bodyType, refusedBody,
							false, Map.of()));
				}
				for (String value : RAW_PATH_VALUES) {
					inputs.add(new Input("path " + parameter.name() + " (traversal)", operation.method(),
							fill(operation.path(), with(real, parameter.name(), encodeKeepingSlashes(value))),
							bodyType, refusedBody, false, Map.of()));
				}
			}
		}
		List<String> queryNames = new ArrayList<>(QUERY_NAMES);
		operation.parameters().stream()
			.filter(p -> p.in().equals("query") && !p.type().equals("object") && !queryNames.contains(p.name()))
			.forEach(p -> queryNames.add(p.name()));
		for (String name : queryNames) {
			for (String value : QUERY_VALUES) {
				inputs.add(new Input("query " + name, operation.method(), base + "?" + encode(name) + "=" + encode(value),
						bodyType, refusedBody, false, Map.of()));
			}
			inputs.add(new Input("query " + name, operation.method(),
					base + "?" + encode(name) + "=1&" + encode(name) + "=abc", bodyType, refusedBody, false, Map.of()));
			inputs.add(new Input("query " + name, operation.method(), base + "?" + encode(name + "[$gt]") + "=",
					bodyType, refusedBody, false, Map.of()));
		}
		for (Map<String, String> headers : HEADERS) {
			inputs.add(new Input("header " + headers.keySet().iterator().next(), operation.method(), base, bodyType,
					refusedBody, false, headers));
		}
		if (operation.body() == null) {
			// a body where none belongs: over the limit, or not JSON
			inputs.add(new Input("oversized body", operation.method(), base, "application/json",
					oversized(operation.maxBody() + 1, "x"), false, Map.of()));
			inputs.add(new Input("malformed json", operation.method(), base, "application/json", bytes("{"), false,
					Map.of()));
			return inputs;
		}
		bodies(operation, schemas, base, inputs);
		return inputs;
	}

	private static void bodies(Operation operation, Schemas schemas, String target, List<Input> inputs) {
		JsonNode schema = schemas.resolve(operation.body());
		JsonNode valid = schemas.example(schema, 0);
		Map<List<Object>, JsonNode> fields = new LinkedHashMap<>();
		schemas.fields(schema, new ArrayList<>(), valid, fields);
		String first = fields.isEmpty() ? "a" : String.valueOf(fields.keySet().iterator().next().getFirst());
		String method = operation.method();
		for (String malformed : MALFORMED) {
			inputs.add(body("malformed json", method, target, malformed.replace("%s", first)));
		}
		inputs.add(new Input("malformed json", method, target, "application/json",
				new byte[] { '{', '"', (byte) 0xff, (byte) 0xfe, '"', ':', '1', '}' }, false, Map.of()));
		for (String json : NOT_AN_OBJECT) {
			inputs.add(body("not an object", method, target, json));
		}
		String validJson = Gateway.JSON.writeValueAsString(valid);
		for (String contentType : CONTENT_TYPES) {
			inputs.add(new Input("content type", method, target, contentType, bytes(validJson), false, Map.of()));
		}
		inputs.add(new Input("content type", method, target, null, bytes(validJson), false, Map.of()));
		long limit = operation.maxBody();
		inputs.add(new Input("oversized body", method, target, "application/json", oversized(limit + 1, first), false,
				Map.of()));
		inputs.add(new Input("oversized body", method, target, "application/json", oversized(limit + 1, first), true,
				Map.of()));
		inputs.add(new Input("oversized body", method, target, "application/json", oversized(2 * limit, first), true,
				Map.of()));
		inputs.add(body("missing fields", method, target, "{}"));
		ObjectNode nulls = NODES.objectNode();
		if (valid instanceof ObjectNode object) {
			object.propertyNames().forEach(name -> nulls.putNull(name));
		}
		inputs.add(body("missing fields", method, target, Gateway.JSON.writeValueAsString(nulls)));
		for (String name : FIELD_NAMES) {
			ObjectNode extra = (ObjectNode) valid.deepCopy();
			extra.put(name, "x");
			inputs.add(body("unknown field", method, target, Gateway.JSON.writeValueAsString(extra)));
		}
		fields.forEach((path, field) -> {
			String where = pointer(path);
			if (schemas.required(schema, path)) {
				inputs.add(body("missing " + where, method, target, Gateway.JSON.writeValueAsString(without(valid, path))));
			}
			if ("string".equals(schemas.type(field)) && !"date-time".equals(field.path("format").asString(""))) {
				// one field over the body limit on its own
				String json = replaced(valid, path, "\"" + "x".repeat((int) Math.min(limit + 1, Integer.MAX_VALUE - 64)) + "\"");
				inputs.add(body("oversized " + where, method, target, json));
			}
			for (String value : wrong(schemas, field)) {
				inputs.add(body("wrong type " + where, method, target, replaced(valid, path, value)));
			}
			int maxLength = field.path("maxLength").asInt(-1);
			if ("string".equals(schemas.type(field)) && maxLength > 0) {
				// one past its column
				inputs.add(body("length past " + where, method, target,
						replaced(valid, path, Gateway.JSON.writeValueAsString("x".repeat(maxLength + 1)))));
			}
			Object name = path.getLast();
			if (name instanceof String named && ADDRESS_FIELD.matcher(named).matches()) {
				boolean list = "array".equals(schemas.type(field));
				for (String address : ADDRESSES) {
					String json = Gateway.JSON.writeValueAsString(address);
					inputs.add(body("address code points " + where, method, target,
							replaced(valid, path, list ? "[" + json + "]" : json)));
				}
			}
		});
	}

	private static List<String> wrong(Schemas schemas, JsonNode field) {
		String type = schemas.type(field);
		return switch (type) {
			case "string" -> "date-time".equals(field.path("format").asString("")) ? FOR_DATES : FOR_STRINGS;
			case "integer", "number" -> FOR_NUMBERS;
			case "boolean" -> FOR_BOOLEANS;
			case "array" -> FOR_ARRAYS;
			default -> FOR_OBJECTS;
		};
	}

	private static Input body(String category, String method, String target, String json) {
		return new Input(category, method, target, "application/json", bytes(json), false, Map.of());
	}

	/** {@code {"<field>":"xxxx..."}} of exactly {@code size} bytes: valid JSON, over the limit. */
	private static byte[] oversized(long size, String field) {
		String head = "{\"" + field + "\":\"";
		String tail = "\"}";
		int fill = (int) Math.max(0, size - head.length() - tail.length());
		return bytes(head + "x".repeat(fill) + tail);
	}

	/** The body as JSON text with the field at {@code path} set to {@code raw}, which need not be JSON. */
	private static String replaced(JsonNode valid, List<Object> path, String raw) {
		JsonNode copy = valid.deepCopy();
		set(copy, path, NODES.stringNode(PLACEHOLDER));
		return Gateway.JSON.writeValueAsString(copy).replace("\"" + PLACEHOLDER + "\"", raw);
	}

	private static JsonNode without(JsonNode valid, List<Object> path) {
		JsonNode copy = valid.deepCopy();
		JsonNode parent = at(copy, path.subList(0, path.size() - 1));
		if (parent instanceof ObjectNode object) {
			object.remove((String) path.getLast());
		}
		return copy;
	}

	private static void set(JsonNode root, List<Object> path, JsonNode value) {
		JsonNode parent = at(root, path.subList(0, path.size() - 1));
		Object last = path.getLast();
		if (parent instanceof ObjectNode object) {
			object.set((String) last, value);
		}
		else if (parent instanceof ArrayNode array) {
			array.set((Integer) last, value);
		}
	}

	private static JsonNode at(JsonNode root, List<Object> path) {
		JsonNode node = root;
		for (Object step : path) {
			node = step instanceof Integer index ? node.path(index) : node.path((String) step);
		}
		return node;
	}

	private static String pointer(List<Object> path) {
		StringBuilder out = new StringBuilder();
		for (Object step : path) {
			out.append(step instanceof Integer index ? "[" + index + "]" : (out.isEmpty() ? "" : ".") + step);
		}
		return out.toString();
	}

	/** The path with each template variable set: to {@code values}' encoded value, else to 1. */
	static String fill(String template, Map<String, String> values) {
		Matcher matcher = TEMPLATE.matcher(template);
		StringBuilder out = new StringBuilder();
		while (matcher.find()) {
			matcher.appendReplacement(out, Matcher.quoteReplacement(values.getOrDefault(matcher.group(1), "1")));
		}
		matcher.appendTail(out);
		return out.toString();
	}

	private static Map<String, String> with(Map<String, String> values, String name, String value) {
		Map<String, String> copy = new LinkedHashMap<>(values);
		copy.put(name, value);
		return copy;
	}

	static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
	}

	private static String encodeKeepingSlashes(String value) {
		List<String> segments = new ArrayList<>();
		for (String segment : value.split("/", -1)) {
			segments.add(segment.startsWith("%2e") ? segment : encode(segment));
		}
		return String.join("/", segments);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/** An OpenAPI document's schemas: {@code $ref}s resolved, a valid-looking example, the fields to break. */
	static final class Schemas {

		private final JsonNode components;

		Schemas(JsonNode document) {
			this.components = document.path("components").path("schemas");
		}

		JsonNode resolve(JsonNode schema) {
			JsonNode node = schema;
			for (int i = 0; i < 10 && node.has("$ref"); i++) {
				String ref = node.get("$ref").asString();
				node = components.path(ref.substring(ref.lastIndexOf('/') + 1));
			}
			return node;
		}

		String type(JsonNode schema) {
			JsonNode node = resolve(schema);
			JsonNode type = node.path("type");
			if (type.isArray()) {
				for (JsonNode t : type) {
					if (!t.asString().equals("null")) {
						return t.asString();
					}
				}
			}
			if (type.isString()) {
				return type.asString();
			}
			if (node.has("properties")) {
				return "object";
			}
			return node.has("items") ? "array" : "string";
		}

		JsonNode example(JsonNode schema, int depth) {
			JsonNode node = resolve(schema);
			return switch (type(node)) {
				case "object" -> {
					ObjectNode object = NODES.objectNode();
					if (depth < 5) {
						for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
							object.set(property.getKey(), example(property.getValue(), depth + 1));
						}
					}
					yield object;
				}
				case "array" -> {
					ArrayNode array = NODES.arrayNode();
					array.add(example(node.path("items"), depth + 1));
					array.add(example(node.path("items"), depth + 1));
					yield array;
				}
				case "integer" -> NODES.numberNode(1);
				case "number" -> NODES.numberNode(1.5);
				case "boolean" -> NODES.booleanNode(false);
				default -> switch (node.path("format").asString("")) {
					case "date-time" -> NODES.stringNode("2030-01-01T00:00:00Z");
					case "email" -> NODES.stringNode("probe@example.com");
					case "uri", "url" -> NODES.stringNode("https://example.com/probe");
					default -> NODES.stringNode("probe");
				};
			};
		}

		/** Every field of the body, nested ones through the first element of an array. */
		void fields(JsonNode schema, List<Object> path, JsonNode example, Map<List<Object>, JsonNode> out) {
			JsonNode node = resolve(schema);
			String type = type(node);
			if (type.equals("object")) {
				for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
					List<Object> at = append(path, property.getKey());
					out.put(at, resolve(property.getValue()));
					fields(property.getValue(), at, example, out);
				}
			}
			else if (type.equals("array") && !path.isEmpty() && path.size() < 6) {
				JsonNode items = resolve(node.path("items"));
				if (type(items).equals("object")) {
					List<Object> at = append(path, 0);
					fields(items, at, example, out);
				}
			}
		}

		/** Whether the document requires the field at {@code path}. */
		boolean required(JsonNode root, List<Object> path) {
			JsonNode node = resolve(root);
			for (int i = 0; i < path.size(); i++) {
				Object step = path.get(i);
				if (step instanceof Integer) {
					node = resolve(node.path("items"));
					continue;
				}
				if (i == path.size() - 1) {
					for (JsonNode name : node.path("required")) {
						if (name.asString().equals(step)) {
							return true;
						}
					}
					return false;
				}
				node = resolve(node.path("properties").path((String) step));
			}
			return false;
		}

		private static List<Object> append(List<Object> path, Object step) {
			List<Object> longer = new ArrayList<>(path);
			longer.add(step);
			return List.copyOf(longer);
		}
	}
}
