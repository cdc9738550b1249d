package dev.perflab.shortener.link;

import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import dev.perflab.shortener.id.IdGenerator;
import dev.perflab.platform.TestIdentity;
import dev.perflab.shortener.id.WorkerIdLease;

import static org.assertj.core.api.Assertions.assertThat;

/** The lab switch: the seed's findAndModify counter still creates working links, and no worker id is leased. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "perflab.shortener.id-strategy=mongo-sequence")
class MongoSequenceStrategyTest {

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Autowired
	IdGenerator ids;

	@Test
	void createsLinksFromTheMongoCounter() {
		assertThat(ids.getClass().getSimpleName()).isEqualTo("MongoSequenceIds");
		assertThat(context.getBeanNamesForType(WorkerIdLease.class)).isEmpty();
		long first = ids.nextId();
		assertThat(ids.nextId()).isEqualTo(first + 1);

		ShortenerApi api = new ShortenerApi(port);
		HttpResponse<String> created = api.post("alice", "application/json", "{\"url\":\"https://example.com/seq\"}");
		assertThat(created.statusCode()).isEqualTo(201);
		String code = (String) JsonMapper.builder().build().readValue(created.body(), Map.class).get("code");
		assertThat(api.get("/s/" + code, null).headers().firstValue("Location")).hasValue("https://example.com/seq");
	}
}
