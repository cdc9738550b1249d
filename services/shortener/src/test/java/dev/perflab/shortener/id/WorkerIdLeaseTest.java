package dev.perflab.shortener.id;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.TestIdentity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against a real Redis (the tests' own, see OwnStores). */
@SpringBootTest
class WorkerIdLeaseTest {

	static final String KEY = "perflab:shortener:worker:";

	static final String SOMEONE_ELSE = "someone-else";

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	WorkerIdLease applicationLease;

	final List<WorkerIdLease> leases = new ArrayList<>();

	@AfterEach
	void releaseEverythingButTheApplicationsLease() {
		leases.forEach(WorkerIdLease::release);
		for (int id = 0; id <= Snowflake.MAX_WORKER; id++) {
			if (SOMEONE_ELSE.equals(redis.opsForValue().get(KEY + id))) {
				redis.delete(KEY + id);
			}
		}
	}

	/**
	 * Every worker id but one is held, and eight replicas start at once: exactly one may get the free id, the others
	 * must be refused. Each contender's first candidate is someone else's id, so a lease taken by a plain SET (no NX)
	 * would overwrite it and this fails.
	 */
	@Test
	void racingReplicasNeverShareAWorkerIdAndNeverTakeAHeldOne() throws Exception {
		int free = (applicationLease.workerId() + 512) % (Snowflake.MAX_WORKER + 1);
		for (int id = 0; id <= Snowflake.MAX_WORKER; id++) {
			if (id != free) {
				redis.opsForValue().setIfAbsent(KEY + id, SOMEONE_ELSE, Duration.ofMinutes(1));
			}
		}
		assertThat(redis.hasKey(KEY + free)).isFalse();

		int contenders = 8;
		CountDownLatch start = new CountDownLatch(1);
		List<CompletableFuture<WorkerIdLease>> racing = new ArrayList<>();
		try (ExecutorService pool = Executors.newFixedThreadPool(contenders)) {
			for (int i = 0; i < contenders; i++) {
				racing.add(CompletableFuture.supplyAsync(() -> {
					await(start);
					return new WorkerIdLease(redis, Duration.ofSeconds(30));
				}, pool));
			}
			start.countDown();
			CompletableFuture.allOf(racing.toArray(CompletableFuture[]::new)).handle((r, e) -> null).get(30, TimeUnit.SECONDS);
		}

		List<WorkerIdLease> won = racing.stream().filter(f -> !f.isCompletedExceptionally()).map(CompletableFuture::join).toList();
		leases.addAll(won);
		assertThat(won).as("replicas that got a worker id").hasSize(1);
		assertThat(won.getFirst().workerId()).isEqualTo(free);
		assertThat(racing.stream().filter(CompletableFuture::isCompletedExceptionally))
			.as("replicas refused: every id is leased").hasSize(contenders - 1)
			.allSatisfy(f -> assertThatThrownBy(f::join).hasRootCauseInstanceOf(IllegalStateException.class)
				.hasRootCauseMessage("all 1024 Snowflake worker ids are leased"));
		for (int id = 0; id <= Snowflake.MAX_WORKER; id++) {
			if (id != free && id != applicationLease.workerId()) {
				assertThat(redis.opsForValue().get(KEY + id)).as("worker id %d stays someone else's", id).isEqualTo(SOMEONE_ELSE);
			}
		}
		applicationLease.ensureHeld();
	}

	@Test
	void twoReplicasNeverLeaseTheSameWorkerId() {
		WorkerIdLease a = lease();
		WorkerIdLease b = lease();
		assertThat(a.workerId()).isNotEqualTo(b.workerId()).isNotEqualTo(applicationLease.workerId());
	}

	@Test
	void refusesIdsOnceTheLeaseIsTakenByAnother() {
		WorkerIdLease lease = lease();
		lease.ensureHeld();
		redis.opsForValue().set(KEY + lease.workerId(), SOMEONE_ELSE);
		lease.renew();
		assertThatThrownBy(lease::ensureHeld).isInstanceOf(ProblemException.class);
	}

	@Test
	void takesItsIdBackWhenTheLeaseLapsedAndNobodyTookIt() {
		WorkerIdLease lease = lease();
		redis.delete(KEY + lease.workerId()); // expired while Redis was away, or Redis came back empty
		lease.renew();
		lease.ensureHeld();
		assertThat(redis.opsForValue().get(KEY + lease.workerId())).as("the lease is this replica's again").isNotEqualTo(SOMEONE_ELSE).isNotNull();
	}

	/**
	 * A replica started while Redis does not answer yet (here: nothing listens on its port for the first 1.5 s, then
	 * a relay to the real Redis does) waits for it and takes a lease; without the retry its start fails at once.
	 */
	@Test
	void aReplicaStartedBeforeRedisAnswersTakesItsLeaseOnceItDoes() throws Exception {
		LettuceConnectionFactory real = (LettuceConnectionFactory) redis.getConnectionFactory();
		int port = freePort();
		LettuceConnectionFactory late = redisAt(port);
		try (ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
				Relay relay = new Relay(port, real.getHostName(), real.getPort())) {
			long started = System.nanoTime();
			later.schedule(relay::open, 1500, TimeUnit.MILLISECONDS);
			WorkerIdLease lease = new WorkerIdLease(new StringRedisTemplate(late), Duration.ofSeconds(30),
					Duration.ofSeconds(30));
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("it waited for Redis")
				.isGreaterThanOrEqualTo(Duration.ofMillis(1500));
			assertThat(lease.workerId()).isNotEqualTo(applicationLease.workerId());
			lease.ensureHeld();
			lease.release();
		}
		finally {
			late.destroy();
		}
	}

	@Test
	void aStartGivesUpWhenRedisNeverAnswers() throws Exception {
		LettuceConnectionFactory nowhere = redisAt(freePort());
		try {
			assertThatThrownBy(() -> new WorkerIdLease(new StringRedisTemplate(nowhere), Duration.ofSeconds(30),
					Duration.ofSeconds(1)))
				.isInstanceOf(RedisConnectionFailureException.class);
		}
		finally {
			nowhere.destroy();
		}
	}

	/** A loopback port nothing listens on (yet). */
	private static int freePort() throws IOException {
		try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			return probe.getLocalPort();
		}
	}

	private static LettuceConnectionFactory redisAt(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** Listens on a port only once opened, and relays each connection to Redis. */
	static final class Relay implements AutoCloseable {

		private final int port;

		private final String host;

		private final int target;

		private volatile ServerSocket server;

		Relay(int port, String host, int target) {
			this.port = port;
			this.host = host;
			this.target = target;
		}

		void open() {
			try {
				server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
			}
			catch (IOException e) {
				throw new UncheckedIOException(e);
			}
			Thread.ofVirtual().start(() -> {
				while (!server.isClosed()) {
					try {
						Socket in = server.accept();
						Socket out = new Socket(host, target);
						Thread.ofVirtual().start(() -> pipe(in, out));
						Thread.ofVirtual().start(() -> pipe(out, in));
					}
					catch (IOException e) {
						return;
					}
				}
			});
		}

		private static void pipe(Socket from, Socket to) {
			try (from; to) {
				from.getInputStream().transferTo(to.getOutputStream());
			}
			catch (IOException e) {
				// one side closed: so is the other
			}
		}

		@Override
		public void close() throws IOException {
			if (server != null) {
				server.close();
			}
		}
	}

	private WorkerIdLease lease() {
		WorkerIdLease lease = new WorkerIdLease(redis, Duration.ofSeconds(30));
		leases.add(lease);
		return lease;
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}
}
