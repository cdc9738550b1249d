package dev.perflab.route;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the body cache off every read streams from MySQL while the client reads, so a client that goes away mid-body
 * is the case that could leak: the read must stop and its connection go back to the pool.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_route_test?createDatabaseIfNotExist=true&rewriteBatchedStatements=true",
		"spring.config.import=classpath:perflab/mariadb-standin.yaml", "perflab.route.body-cache.max-size=0" })
class ClientDisconnectTest {

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@Test
	void aResponseCutByTheClientLeaksNoConnection() throws IOException {
		RouteApi api = new RouteApi(port);
		List<RouteApi.Point> points = RouteApi.path(50_000, 13);
		long id = api.created("1", RouteApi.body(points, false));
		HikariPoolMXBean pool = ((HikariDataSource) dataSource).getHikariPoolMXBean();

		List<Socket> readers = new ArrayList<>();
		for (int i = 0; i < 16; i++) {
			Socket socket = new Socket("127.0.0.1", port);
			// a small receive window: the server blocks in mid-body while this reader sleeps
			socket.setReceiveBufferSize(4096);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /v1/routes/" + id + "/points HTTP/1.1\r\nHost: 127.0.0.1\r\n" + Identity.HEADER + ": "
					+ TestIdentity.user("alice", "1", "route") + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[4096];
			int read = 0;
			while (read < 8192) {
				int n = in.read(buffer);
				assertThat(n).as("the body starts").isPositive();
				read += n;
			}
			readers.add(socket);
		}
		assertThat(pool.getActiveConnections()).as("the cut readers are mid-stream, each holding its read")
			.isPositive();
		for (Socket socket : readers) {
			socket.setSoLinger(true, 0);
			socket.close();
		}

		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(pool.getActiveConnections()).isZero());
		assertThat(RouteApi.points(api.get("/v1/routes/" + id + "/points", "1").body(), false))
			.as("the pool still serves whole reads").isEqualTo(points);
	}
}
