package dev.perflab.shortener.id;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against the real Redis of the local stack. */
@SpringBootTest
class WorkerIdLeaseTest {

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	WorkerIdLease applicationLease;

	@Test
	void twoReplicasNeverLeaseTheSameWorkerId() {
		WorkerIdLease a = new WorkerIdLease(redis, Duration.ofSeconds(30));
		WorkerIdLease b = new WorkerIdLease(redis, Duration.ofSeconds(30));
		try {
			assertThat(a.workerId()).isNotEqualTo(b.workerId()).isNotEqualTo(applicationLease.workerId());
		}
		finally {
			a.release();
			b.release();
		}
	}

	@Test
	void refusesIdsOnceTheLeaseIsTakenByAnother() {
		WorkerIdLease lease = new WorkerIdLease(redis, Duration.ofSeconds(30));
		try {
			lease.ensureHeld();
			redis.opsForValue().set("perflab:shortener:worker:" + lease.workerId(), "someone-else");
			lease.renew();
			assertThatThrownBy(lease::ensureHeld).isInstanceOf(ProblemException.class);
		}
		finally {
			redis.delete("perflab:shortener:worker:" + lease.workerId());
		}
	}
}
