package dev.perflab.route;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body refused by its Content-Length (route takes 4 MB) is read to its end before the connection closes, so a
 * proxy still sending it reads the 413: Tomcat would close after 2 MB of unread body, and the sender's next write
 * would meet a reset that can take the 413 with it (the gateway answered 503).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_route_test?createDatabaseIfNotExist=true&rewriteBatchedStatements=true",
		"spring.config.import=classpath:perflab/mariadb-standin.yaml" })
class RefusedBodyTest {

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

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
