package dev.perflab.e2e;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import org.junit.jupiter.api.Test;

import static dev.perflab.e2e.Gateway.authed;
import static dev.perflab.e2e.Gateway.json;
import static dev.perflab.e2e.Gateway.send;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 002's route through the gateway: a route written, its points read back in order in each encoding (gzipped,
 * revalidated with its strong ETag), the office boundary, and a refused route that leaves nothing behind.
 */
class RouteThroughGatewayTest {

	static final String ALICE = DevTokens.token("alice", "1");

	static final String ALICE_OF_OFFICE_2 = DevTokens.token("alice", "2");

	static final int POINTS = 3_000;

	@Test
	void aRouteIsReadBackPointForPointInEveryEncoding() {
		List<double[]> points = path(POINTS);
		long id = create(ALICE, body("e2e route", points));

		Map<?, ?> meta = json(send(authed("/v1/routes/" + id, ALICE).GET()));
		assertThat(meta.get("point_count")).isEqualTo(POINTS);
		assertThat((List<?>) meta.get("stops")).hasSize(2);

		HttpResponse<byte[]> array = points(id, "application/json", null);
		assertThat(array.statusCode()).isEqualTo(200);
		assertThat(array.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(array.headers().firstValue("Cache-Control").orElse("")).contains("immutable");
		List<?> read = Gateway.JSON.readValue(gunzip(array.body()), List.class);
		assertSamePath(read.stream().<Map<?, ?>>map(p -> (Map<?, ?>) p).toList(), points);

		HttpResponse<byte[]> ndjson = points(id, "application/x-ndjson", null);
		assertThat(ndjson.headers().firstValue("Content-Type").orElse("")).startsWith("application/x-ndjson");
		assertSamePath(gunzip(ndjson.body()).lines().<Map<?, ?>>map(l -> (Map<?, ?>) Gateway.JSON.readValue(l, Map.class)).toList(),
				points);

		String etag = array.headers().firstValue("ETag").orElseThrow();
		assertThat(etag).as("a strong ETag").startsWith("\"");
		HttpResponse<byte[]> again = points(id, "application/json", etag);
		assertThat(again.statusCode()).isEqualTo(304);
		assertThat(again.body()).isEmpty();
	}

	@Test
	void anotherOfficeSeesNoRouteEvenUnderTheSameLogin() {
		long id = create(ALICE, body("office 1 only", path(10)));
		for (String path : List.of("/v1/routes/" + id, "/v1/routes/" + id + "/points")) {
			HttpResponse<String> response = send(authed(path, ALICE_OF_OFFICE_2).GET());
			assertThat(response.statusCode()).as(path).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
		}
	}

	@Test
	void aRefusedRouteIsA400ProblemAndWritesNothing() {
		long before = create(ALICE, body("before", path(2)));
		List<double[]> outOfRange = path(5);
		outOfRange.set(3, new double[] { 91.0, 127.0 });
		for (String refused : List.of(body("lat 91", outOfRange), "{\"name\":\"no points\",\"bus\":\"b\",\"stops\":[]}",
				"{\"name\":\"wrong type\",\"bus\":\"b\",\"stops\":[],\"points\":\"many\"}")) {
			HttpResponse<String> response = post(ALICE, refused);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
			assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
		}
		long after = create(ALICE, body("after", path(2)));
		// ids come from one sequence per database: a refused route that had been written would sit between the two
		for (long id = before + 1; id < after; id++) {
			assertThat(send(authed("/v1/routes/" + id, ALICE).GET()).statusCode()).as("route " + id).isEqualTo(404);
		}
	}

	private static long create(String token, String json) {
		HttpResponse<String> created = post(token, json);
		assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
		return ((Number) json(created).get("id")).longValue();
	}

	private static HttpResponse<String> post(String token, String json) {
		return send(authed("/v1/routes", token).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	private static HttpResponse<byte[]> points(long id, String accept, String ifNoneMatch) {
		HttpRequest.Builder request = authed("/v1/routes/" + id + "/points", ALICE).header("Accept", accept)
			.header("Accept-Encoding", "gzip");
		if (ifNoneMatch != null) {
			request.header("If-None-Match", ifNoneMatch);
		}
		return Gateway.bytes(request.GET());
	}

	/** A bus path of {@code n} points a few metres apart, as the k6 route scripts draw it. */
	private static List<double[]> path(int n) {
		List<double[]> points = new ArrayList<>();
		double lat = 37.5, lng = 127.0, heading = 0.3;
		for (int i = 0; i < n; i++) {
			heading += Math.sin(i * 0.37) * 0.1;
			lat += Math.cos(heading) * 0.00005;
			lng += Math.sin(heading) * 0.00006;
			points.add(new double[] { Math.round(lat * 1e7) / 1e7, Math.round(lng * 1e7) / 1e7 });
		}
		return points;
	}

	private static String body(String name, List<double[]> points) {
		Map<String, Object> route = new LinkedHashMap<>();
		route.put("name", name);
		route.put("bus", "bus-e2e");
		double[] first = points.getFirst(), last = points.getLast();
		route.put("stops", List.of(Map.of("name", "first", "lat", first[0], "lng", first[1]),
				Map.of("name", "last", "lat", last[0], "lng", last[1])));
		route.put("points", points.stream().map(p -> Map.of("lat", p[0], "lng", p[1])).toList());
		return Gateway.JSON.writeValueAsString(route);
	}

	private static void assertSamePath(List<Map<?, ?>> read, List<double[]> written) {
		assertThat(read).hasSize(written.size());
		for (int i = 0; i < written.size(); i++) {
			Map<?, ?> point = read.get(i);
			assertThat(((Number) point.get("seq")).intValue()).isEqualTo(i);
			assertThat(((Number) point.get("lat")).doubleValue()).as("lat of point " + i).isEqualTo(written.get(i)[0]);
			assertThat(((Number) point.get("lng")).doubleValue()).as("lng of point " + i).isEqualTo(written.get(i)[1]);
		}
	}

	private static String gunzip(byte[] body) {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}
}
