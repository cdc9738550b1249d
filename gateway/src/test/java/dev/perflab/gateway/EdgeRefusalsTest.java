package dev.perflab.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every refusal is problem+json, including the ones taken before any filter (malformed URI, over-long request line
 * or headers), and health details stay behind authorization.
 */
class EdgeRefusalsTest extends GatewayTestSupport {

	@Test
	void anEncodedSlashBackslashOrNulIsA400ProblemAndNeverReachesTheService() throws Exception {
		// the upstream is shared with the other tests of this context, whose codes may start with "ab" too
		Map<String, Integer> before = seen(k -> k.endsWith("cd") || k.endsWith("b"));
		for (String path : new String[] { "/s/ab%2Fcd", "/s/ab%2fcd", "/s/ab%5Ccd", "/s/ab%00cd",
				"/v1/short-links/a%2F..%2Fb" }) {
			Raw response = raw("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
			assertThat(response.status).as(path).isEqualTo(400);
			assertProblem(response, "malformed-request");
		}
		assertThat(seen(k -> k.endsWith("cd") || k.endsWith("b")))
			.as("requests the upstream saw that any of these paths could have become")
			.isEqualTo(before);
	}

	@Test
	void aDotSegmentIsA400ProblemAndNeverReachesTheService() throws Exception {
		// the upstream is shared with the other tests of this context: what it saw before, per request line
		Map<String, Integer> before = seen(DOT_SEGMENT_TARGETS);
		for (String path : new String[] { "/v1/short-links/../../../etc/passwd", "/v1/short-links/1/../../../x",
				"/v1/short-links/./1", "/v1/short-links/%2e%2e/x", "/v1/short-links/.%2E/x", "/v1/short-links/..;/x" }) {
			Raw response = raw("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
			assertThat(response.status).as(path).isEqualTo(400);
			assertProblem(response, "malformed-request");
		}
		assertThat(seen(DOT_SEGMENT_TARGETS)).as("requests the upstream saw that any of these paths could have become")
			.isEqualTo(before);
	}

	private static final Predicate<String> DOT_SEGMENT_TARGETS = k -> k.contains("etc") || k.contains("passwd")
			|| k.endsWith("/x") || k.endsWith(" x") || k.endsWith("/1");

	/** The upstream's count per request line (or code) one of the refused paths could reach it by, however resolved */
	private static Map<String, Integer> seen(Predicate<String> reachable) {
		Map<String, Integer> seen = new TreeMap<>();
		UPSTREAM.hits.forEach((k, v) -> {
			if (reachable.test(k)) {
				seen.put(k, v.get());
			}
		});
		return seen;
	}

	@Test
	void badPercentEncodingIsA400Problem() throws Exception {
		Raw response = raw("GET /s/ab%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		assertThat(response.status).isEqualTo(400);
		assertProblem(response, "malformed-request");
	}

	@Test
	void anOverLongRequestLineIsA414Problem() throws Exception {
		Raw response = raw("GET /s/" + "a".repeat(70_000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
		assertThat(response.status).isEqualTo(414);
		assertProblem(response, "uri-too-long");
	}

	@Test
	void overLargeHeadersAreA431Problem() throws Exception {
		Raw response = raw("GET /s/abc HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(70_000) + "\r\n\r\n");
		assertThat(response.status).isEqualTo(431);
		assertProblem(response, "header-fields-too-large");
	}

	@Test
	void healthShowsNoDetailsToAnUnauthenticatedCaller() throws Exception {
		HttpResponse<String> health = CLIENT.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/actuator/health")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"status\":\"UP\"").doesNotContain("components", "redis", "details");
	}

	private static void assertProblem(Raw response, String slug) {
		assertThat(response.headers.toLowerCase()).contains("content-type: application/problem+json");
		assertThat(response.body).contains("\"type\":\"https://perflab.dev/problems/" + slug + "\"",
				"\"status\":" + response.status);
	}

	record Raw(int status, String headers, String body) {
	}

	/** The JDK's client refuses to send most malformed requests, so these go over a plain socket. */
	private Raw raw(String request) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(request.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			InputStream in = socket.getInputStream();
			String text = readResponse(in);
			int headerEnd = text.indexOf("\r\n\r\n");
			String head = headerEnd < 0 ? text : text.substring(0, headerEnd);
			String body = headerEnd < 0 ? "" : text.substring(headerEnd + 4);
			int status = Integer.parseInt(head.substring(9, 12));
			return new Raw(status, head, body);
		}
	}

	private static String readResponse(InputStream in) throws IOException {
		StringBuilder text = new StringBuilder();
		byte[] buffer = new byte[8192];
		int contentLength = -1;
		int headerEnd = -1;
		int n;
		while ((n = in.read(buffer)) >= 0) {
			text.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
			if (headerEnd < 0 && (headerEnd = text.indexOf("\r\n\r\n")) >= 0) {
				for (String line : text.substring(0, headerEnd).split("\r\n")) {
					if (line.toLowerCase().startsWith("content-length:")) {
						contentLength = Integer.parseInt(line.substring(15).trim());
					}
				}
			}
			if (headerEnd >= 0 && contentLength >= 0 && text.length() >= headerEnd + 4 + contentLength) {
				break;
			}
		}
		return text.toString();
	}
}
