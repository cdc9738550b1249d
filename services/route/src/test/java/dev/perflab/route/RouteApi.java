package dev.perflab.route;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;

import tools.jackson.databind.json.JsonMapper;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

/** Real HTTP to the route service under test, the way the gateway calls it (a user's identity signed for route). */
public record RouteApi(int port) {

	static final JsonMapper JSON = JsonMapper.builder().build();

	static final HttpClient CLIENT = HttpClient.newHttpClient();

	/** One point as the API reads and writes it. */
	public record Point(int seq, double lat, double lng) {
	}

	public HttpResponse<String> create(String user, String office, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri("/v1/routes"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		return send(as(user, office, request), HttpResponse.BodyHandlers.ofString());
	}

	/** Creates a route and answers its id. */
	public long created(String office, String body) {
		HttpResponse<String> response = create("alice", office, body);
		if (response.statusCode() != 201) {
			throw new AssertionError(response.statusCode() + " " + response.body());
		}
		return ((Number) json(response.body()).get("id")).longValue();
	}

	public HttpResponse<String> get(String path, String office) {
		return send(as("alice", office, HttpRequest.newBuilder(uri(path)).GET()), HttpResponse.BodyHandlers.ofString());
	}

	/** A GET with these headers (name, value, ...); the body as bytes, still gzipped if it came so. */
	public HttpResponse<byte[]> raw(String path, String office, String... headers) {
		HttpRequest.Builder request = as("alice", office, HttpRequest.newBuilder(uri(path)).GET());
		if (headers.length > 0) {
			request.headers(headers);
		}
		return send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	static HttpRequest.Builder as(String user, String office, HttpRequest.Builder request) {
		return user == null ? request : request.header(Identity.HEADER, TestIdentity.user(user, office, "route"));
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
		try {
			return CLIENT.send(request.build(), body);
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	public static Map<?, ?> json(String body) {
		return JSON.readValue(body, Map.class);
	}

	public static byte[] gunzip(byte[] body) {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
			return in.readAllBytes();
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	/** A deterministic bus path of n points around Seoul, a few metres apart. */
	public static List<Point> path(int n, long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		List<Point> points = new ArrayList<>(n);
		double lat = 37.5 + random.nextDouble() * 0.1, lng = 127.0 + random.nextDouble() * 0.1;
		for (int i = 0; i < n; i++) {
			lat += (random.nextDouble() - 0.5) * 0.0002;
			lng += (random.nextDouble() - 0.5) * 0.0002;
			points.add(new Point(i, Math.round(lat * 1e7) / 1e7, Math.round(lng * 1e7) / 1e7));
		}
		return points;
	}

	/** A create body with two stops and these points, with or without seq. */
	public static String body(List<Point> points, boolean withSeq) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("name", "Gangnam - Sinchon");
		body.put("bus", "bus-7");
		body.put("stops", List.of(Map.of("name", "Gangnam", "lat", 37.4979, "lng", 127.0276),
				Map.of("name", "Sinchon", "lat", 37.5551, "lng", 126.9368)));
		body.put("points", points.stream().map(p -> {
			Map<String, Object> point = new LinkedHashMap<>();
			if (withSeq) {
				point.put("seq", p.seq());
			}
			point.put("lat", p.lat());
			point.put("lng", p.lng());
			return point;
		}).toList());
		return JSON.writeValueAsString(body);
	}

	/** The points of a JSON array or NDJSON body. */
	public static List<Point> points(String body, boolean lines) {
		if (!lines) {
			return List.of(JSON.readValue(body, Point[].class));
		}
		return body.lines().filter(line -> !line.isBlank()).map(line -> JSON.readValue(line, Point.class)).toList();
	}

	/** Decodes an encoded polyline (precision 1e-5) into its points, numbered from 0. */
	public static List<Point> polyline(String encoded) {
		List<Point> points = new ArrayList<>();
		int index = 0;
		long lat = 0, lng = 0;
		while (index < encoded.length()) {
			long[] value = new long[2];
			for (int c = 0; c < 2; c++) {
				long result = 0;
				int shift = 0, b;
				do {
					b = encoded.charAt(index++) - 63;
					result |= (long) (b & 0x1f) << shift;
					shift += 5;
				}
				while (b >= 0x20);
				value[c] = (result & 1) != 0 ? ~(result >> 1) : result >> 1;
			}
			lat += value[0];
			lng += value[1];
			points.add(new Point(points.size(), lat / 1e5, lng / 1e5));
		}
		return points;
	}
}
