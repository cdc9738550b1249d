package dev.perflab.shortener;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;

/** A test run writes only to stores of its own, whatever the environment says. */
@SpringBootTest(properties = { "spring.mongodb.database=perflab_shortener", "spring.data.redis.port=16379" })
class OwnStoresTest {

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
		registry.add("spring.data.redis.port", () -> 16379);
	}

	@Autowired
	MongoTemplate mongo;

	@Autowired
	LettuceConnectionFactory redis;

	@Test
	void neverUsesTheLocalStacksDatabaseOrRedis() {
		assertThat(mongo.getDb().getName()).isEqualTo(OwnStores.DATABASE);
		assertThat(redis.getPort()).isEqualTo(OwnStores.Redis.PORT).isNotEqualTo(16379);
	}
}
