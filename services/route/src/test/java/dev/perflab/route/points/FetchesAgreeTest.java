package dev.perflab.route.points;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;
import dev.perflab.route.RouteApi;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab switch changes how the points are read, never what is answered: the service runs the baseline
 * ({@code interface-projection}, no body cache), and its HTTP answers are compared byte for byte with what the fixed
 * design's streaming read writes for the same route.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_route_test?createDatabaseIfNotExist=true&rewriteBatchedStatements=true",
		"spring.config.import=classpath:perflab/mariadb-standin.yaml",
		"perflab.route.points-fetch=interface-projection", "perflab.route.body-cache.max-size=0" })
class FetchesAgreeTest {

	@LocalServerPort
	int port;

	@Autowired
	PointsFetch baseline;

	@Autowired
	DataSource dataSource;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@Test
	void interfaceProjectionAndJdbcStreamAnswerTheSamePoints() throws IOException {
		assertThat(baseline).isInstanceOf(InterfaceProjectionFetch.class);
		RouteApi api = new RouteApi(port);
		List<RouteApi.Point> points = RouteApi.path(20_000, 11);
		long id = api.created("1", RouteApi.body(points, false));
		JdbcStreamFetch fixed = new JdbcStreamFetch(dataSource, Integer.MIN_VALUE);

		for (Format format : Format.values()) {
			byte[] streamed = write(fixed, id, format);
			assertThat(write(baseline, id, format)).as(format.name).isEqualTo(streamed);
			assertThat(api.raw("/v1/routes/" + id + "/points?format=" + format.name, "1").body()).as(format.name)
				.isEqualTo(streamed);
			assertThat(RouteApi.gunzip(api.raw("/v1/routes/" + id + "/points?format=" + format.name, "1",
					"Accept-Encoding", "gzip").body())).as(format.name + ", gzipped").isEqualTo(streamed);
		}
		assertThat(RouteApi.points(new String(write(fixed, id, Format.JSON)), false)).isEqualTo(points);
	}

	/**
	 * The mechanism behind seed 002's pauses, measured as bytes allocated (not time): the streaming read allocates a
	 * row at a time, the interface projection a proxy, a tuple and a buffered row per point, all alive at once.
	 */
	@Test
	void theStreamingReadAllocatesAFractionOfTheInterfaceProjection() throws IOException {
		long id = new RouteApi(port).created("1", RouteApi.body(RouteApi.path(20_000, 17), false));
		JdbcStreamFetch fixed = new JdbcStreamFetch(dataSource, Integer.MIN_VALUE);
		long streamed = Long.MAX_VALUE, projected = Long.MAX_VALUE;
		for (int round = 0; round < 5; round++) { // the least of five: JIT warm-up and TLAB noise out
			streamed = Math.min(streamed, allocated(fixed, id));
			projected = Math.min(projected, allocated(baseline, id));
		}
		System.out.printf("allocated per 20k-point read: jdbc-stream %,d B, interface-projection %,d B (%.1fx)%n",
				streamed, projected, (double) projected / streamed);
		assertThat(projected).as("interface-projection allocates several times the streaming read")
			.isGreaterThan(3 * streamed);
	}

	private static long allocated(PointsFetch fetch, long id) throws IOException {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
			.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		PointSink sink = Format.POLYLINE.sink(java.io.OutputStream.nullOutputStream());
		fetch.points(id, sink);
		sink.finish();
		return threads.getCurrentThreadAllocatedBytes() - before;
	}

	private static byte[] write(PointsFetch fetch, long id, Format format) throws IOException {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		PointSink sink = format.sink(out);
		fetch.points(id, sink);
		sink.finish();
		return out.toByteArray();
	}
}
