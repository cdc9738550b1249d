package dev.perflab.route;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;
import dev.perflab.route.RouteApi.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The route service over real HTTP against the local MariaDB ({@code perflab_route_test}), with the fixed design:
 * points streamed from MySQL, the gzipped body cached per route version.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_route_test?createDatabaseIfNotExist=true&rewriteBatchedStatements=true",
		"spring.config.import=classpath:perflab/mariadb-standin.yaml" })
public class RouteServiceTest {

	static final List<Point> TWENTY_K = RouteApi.path(20_000, 2);

	// one 20k-point route per test JVM and context, created by the first test that needs it
	private static Long bigRoute;

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	protected RouteApi api;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@BeforeEach
	void client() {
		api = new RouteApi(port);
	}

	protected long bigRoute() {
		if (bigRoute == null) {
			bigRoute = api.created("1", RouteApi.body(TWENTY_K, false));
		}
		return bigRoute;
	}

	@Test
	void roundTripsATwentyThousandPointRouteInEveryEncoding() {
		long id = bigRoute();
		Map<?, ?> route = RouteApi.json(api.get("/v1/routes/" + id, "1").body());
		assertThat(route.get("point_count")).isEqualTo(20_000);
		assertThat(route.get("version")).isEqualTo(1);
		assertThat((List<?>) route.get("stops")).hasSize(2);

		HttpResponse<String> json = api.get("/v1/routes/" + id + "/points", "1");
		assertThat(json.statusCode()).isEqualTo(200);
		assertThat(json.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
		assertThat(RouteApi.points(json.body(), false)).isEqualTo(TWENTY_K);

		HttpResponse<byte[]> ndjson = api.raw("/v1/routes/" + id + "/points", "1", "Accept", "application/x-ndjson");
		assertThat(ndjson.headers().firstValue("Content-Type")).hasValue("application/x-ndjson");
		assertThat(RouteApi.points(new String(ndjson.body(), StandardCharsets.UTF_8), true)).isEqualTo(TWENTY_K);

		for (HttpResponse<byte[]> polyline : List.of(
				api.raw("/v1/routes/" + id + "/points", "1", "Accept", "application/vnd.perflab.polyline"),
				api.raw("/v1/routes/" + id + "/points?format=polyline", "1"))) {
			assertThat(polyline.headers().firstValue("Content-Type")).hasValue("application/vnd.perflab.polyline");
			String encoded = new String(polyline.body(), StandardCharsets.US_ASCII);
			assertThat(encoded.length()).as("a few bytes a point").isLessThan(20_000 * 10);
			List<Point> decoded = RouteApi.polyline(encoded);
			assertThat(decoded).hasSize(20_000);
			for (int i = 0; i < decoded.size(); i += 97) {
				assertThat(decoded.get(i).lat()).isCloseTo(TWENTY_K.get(i).lat(), within(0.6e-5));
				assertThat(decoded.get(i).lng()).isCloseTo(TWENTY_K.get(i).lng(), within(0.6e-5));
			}
		}
	}

	@Test
	void keepsExplicitSequenceNumbers() {
		List<Point> spaced = new ArrayList<>();
		for (Point p : RouteApi.path(50, 7)) {
			spaced.add(new Point(p.seq() * 10 + 5, p.lat(), p.lng()));
		}
		long id = api.created("1", RouteApi.body(spaced, true));
		assertThat(RouteApi.points(api.get("/v1/routes/" + id + "/points", "1").body(), false)).isEqualTo(spaced);
	}

	@Test
	void gzipsWhenAcceptedAndOnlyThen() {
		long id = bigRoute();
		HttpResponse<byte[]> plain = api.raw("/v1/routes/" + id + "/points", "1");
		assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
		HttpResponse<byte[]> gzipped = api.raw("/v1/routes/" + id + "/points", "1", "Accept-Encoding", "br, gzip");
		assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(gzipped.body().length).as("compressed").isLessThan(plain.body().length / 2);
		assertThat(RouteApi.gunzip(gzipped.body())).isEqualTo(plain.body());
		HttpResponse<byte[]> refused = api.raw("/v1/routes/" + id + "/points", "1", "Accept-Encoding", "gzip;q=0");
		assertThat(refused.headers().firstValue("Content-Encoding")).isEmpty();
	}

	@Test
	void answersNotModifiedForTheVersionTheClientHas() {
		long id = bigRoute();
		HttpResponse<byte[]> first = api.raw("/v1/routes/" + id + "/points", "1", "Accept-Encoding", "gzip");
		String etag = first.headers().firstValue("ETag").orElseThrow();
		assertThat(etag).startsWith("\"").doesNotStartWith("W/");
		assertThat(first.headers().firstValue("Cache-Control")).hasValueSatisfying(
				c -> assertThat(c).contains("private").contains("max-age=").contains("immutable"));
		assertThat(first.headers().allValues("Vary").toString()).contains("Accept").contains("Accept-Encoding");

		HttpResponse<byte[]> again = api.raw("/v1/routes/" + id + "/points", "1", "Accept-Encoding", "gzip",
				"If-None-Match", etag);
		assertThat(again.statusCode()).isEqualTo(304);
		assertThat(again.body()).isEmpty();
		assertThat(again.headers().firstValue("ETag")).hasValue(etag);

		HttpResponse<byte[]> otherFormat = api.raw("/v1/routes/" + id + "/points?format=polyline", "1",
				"Accept-Encoding", "gzip", "If-None-Match", etag);
		assertThat(otherFormat.statusCode()).as("another representation, another tag").isEqualTo(200);
		assertThat(otherFormat.headers().firstValue("ETag").orElseThrow()).isNotEqualTo(etag);
	}

	@Test
	void anotherOfficesRouteIsNotFound() {
		long id = bigRoute();
		for (String path : List.of("/v1/routes/" + id, "/v1/routes/" + id + "/points")) {
			HttpResponse<String> response = api.get(path, "2");
			assertThat(response.statusCode()).as(path).isEqualTo(404);
			assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		}
	}

	/** Unknown fields, malformed JSON, 401, a bad id and 406: RouteControllerWebMvcTest, PointsControllerWebMvcTest. */
	@Test
	void refusesBadInputWithProblemDetailsAndWritesNothing() {
		long before = routeCount();
		List<Point> ok = RouteApi.path(10, 3);
		List<Point> badLat = new ArrayList<>(ok);
		badLat.set(4, new Point(4, 91, 127));
		List<Point> reversed = new ArrayList<>(ok);
		reversed.set(4, new Point(2, ok.get(4).lat(), ok.get(4).lng()));
		assertProblem(api.create("alice", "1", RouteApi.body(badLat, false)), 400, "invalid-coordinates");
		assertProblem(api.create("alice", "1", RouteApi.body(reversed, true)), 400, "unordered-points");
		assertProblem(api.create("alice", "1", RouteApi.body(RouteApi.path(50_001, 4), false)), 400, "too-many-points");
		assertProblem(api.create("alice", "1", RouteApi.body(List.of(), false)), 400, "invalid-route");
		assertThat(routeCount()).as("no refused route was written, not even in part").isEqualTo(before);

		assertProblem(api.get("/v1/routes/999999999999/points", "1"), 404, "not-found");
	}

	@Test
	void answersTheCreatedRouteWithItsLocation() {
		HttpResponse<String> created = api.create("alice", "1", RouteApi.body(RouteApi.path(100, 5), false));
		assertThat(created.statusCode()).isEqualTo(201);
		Map<?, ?> body = RouteApi.json(created.body());
		assertThat(created.headers().firstValue("Location")).hasValue("/v1/routes/" + body.get("id"));
		assertThat(body.get("point_count")).isEqualTo(100);
		assertThat(body.get("created_by")).isEqualTo("alice");
	}

	private long routeCount() {
		return jdbc.sql("SELECT COUNT(*) FROM route").query(Long.class).single();
	}

	private static void assertProblem(HttpResponse<String> response, int status, String slug) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		if (slug != null) {
			assertThat(RouteApi.json(response.body()).get("type")).isEqualTo("https://perflab.dev/problems/" + slug);
		}
	}

	/**
	 * A body refused by its Content-Length (route takes 4 MB) is read to its end before the connection closes, so a
	 * proxy still sending it reads the 413: Tomcat would close after 2 MB of unread body, and the sender's next write
	 * would meet a reset that can take the 413 with it (the gateway answered 503).
	 */
	@Test
	void theWholeOfABodyOverTheLimitIsTakenAndAnswered413() throws IOException {
		int size = 12 * 1024 * 1024; // three times the limit, six times Tomcat's default swallow
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /v1/routes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
					+ size + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			byte[] chunk = new byte[64 * 1024];
			Arrays.fill(chunk, (byte) ' ');
			for (int sent = 0; sent < size; sent += chunk.length) {
				out.write(chunk, 0, Math.min(chunk.length, size - sent));
			}
			out.flush();
			String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
			Matcher status = Pattern.compile("^HTTP/1\\.1 (\\d{3})").matcher(answer);
			assertThat(status.find()).as("an answer to the refused body: %s", answer).isTrue();
			assertThat(status.group(1)).isEqualTo("413");
			assertThat(answer).contains("application/problem+json");
		}
	}
}
