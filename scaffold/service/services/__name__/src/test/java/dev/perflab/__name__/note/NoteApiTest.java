package dev.perflab.__name__.note;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.identity.Identity;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/** __name__ over real HTTP against the local MariaDB ({@code perflab___name___test}), called as the gateway calls it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab___name___test?createDatabaseIfNotExist=true",
		"spring.config.import=classpath:perflab/mariadb-standin.yaml" })
class NoteApiTest {

	static final HttpClient CLIENT = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@Test
	void aNoteIsCreatedAndReadBackByItsOffice() throws Exception {
		HttpResponse<String> created = post("1", "{\"text\":\"hello\"}");
		assertThat(created.statusCode()).isEqualTo(201);
		String location = created.headers().firstValue("Location").orElseThrow();
		assertThat(location).matches("/v1/__name__/notes/\\d+");
		HttpResponse<String> read = get("1", location);
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(read.body()).contains("\"text\":\"hello\"", "\"created_by\":\"alice\"");
	}

	@Test
	void anotherOfficesNoteIsNotFound() throws Exception {
		String location = post("1", "{\"text\":\"office 1's\"}").headers().firstValue("Location").orElseThrow();
		HttpResponse<String> read = get("2", location);
		assertThat(read.statusCode()).isEqualTo(404);
		assertThat(read.headers().firstValue("Content-Type")).hasValue("application/problem+json");
	}

	@Test
	void badInputIsA400ProblemAndWritesNothing() throws Exception {
		long before = count();
		for (String body : new String[] { "{\"text\":\" \"}", "{\"text\":\"" + "x".repeat(Note.MAX_TEXT + 1) + "\"}",
				"{\"text\":\"a\",\"color\":\"red\"}", "{\"text\":", "{}" }) {
			HttpResponse<String> answer = post("1", body);
			assertThat(answer.statusCode()).as(body).isEqualTo(400);
			assertThat(answer.headers().firstValue("Content-Type")).as(body).hasValue("application/problem+json");
		}
		assertThat(get("1", "/v1/__name__/notes/abc").statusCode()).isEqualTo(400);
		assertThat(count()).isEqualTo(before);
	}

	@Test
	void aCallerTheGatewayDidNotVouchForIsRefused() throws Exception {
		HttpResponse<String> answer = CLIENT.send(HttpRequest.newBuilder(uri("/v1/__name__/notes/1")).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(answer.statusCode()).isEqualTo(401);
	}

	private long count() {
		return jdbc.sql("SELECT COUNT(*) FROM note").query(Long.class).single();
	}

	private HttpResponse<String> post(String office, String body) throws Exception {
		return CLIENT.send(HttpRequest.newBuilder(uri("/v1/__name__/notes"))
			.header("Content-Type", "application/json")
			.header(Identity.HEADER, TestIdentity.user("alice", office, "__name__"))
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> get(String office, String path) throws Exception {
		return CLIENT.send(HttpRequest.newBuilder(uri(path)).header(Identity.HEADER, TestIdentity.user("alice", office, "__name__"))
			.GET()
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}
}
