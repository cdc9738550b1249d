package dev.perflab.route.dispatch;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;
import dev.perflab.route.RouteApi;
import dev.perflab.platform.TestClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The point quota against real MariaDB over real HTTP, at 1,000 points per office a day. Each test runs on a day of
 * its own on a clock the test moves (far from the days the other tests create routes on), as office 1.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_route_test?createDatabaseIfNotExist=true&rewriteBatchedStatements=true",
		"spring.config.import=classpath:perflab/mariadb-standin.yaml", "perflab.route.quota.points-per-office=1000" })
class PointQuotaTest {

	static final long LIMIT = 1000;

	static final Instant FIRST_DAY = Instant.parse("2102-01-01T00:00:00Z");

	static final String TEST_ROWS = "day >= '2101-12-01'";

	static final AtomicLong DAYS = new AtomicLong();

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	DataSource dataSource;

	@Autowired
	TestClock clock;

	@Autowired
	MeterRegistry meters;

	@Autowired
	PointQuota quota;

	@Autowired
	Routes routes;

	RouteApi api;

	Instant day;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@BeforeEach
	void aDayOfItsOwn() {
		api = new RouteApi(port);
		forgetTheTestDays();
		day = FIRST_DAY.plus(Duration.ofDays(DAYS.getAndIncrement()));
		clock.set(day.plus(Duration.ofHours(20)));
	}

	@AfterEach
	void forgetTheTestDays() {
		jdbc.sql("DELETE FROM point_quota WHERE " + TEST_ROWS).update();
	}

	@Test
	void acceptsUpToTheOfficesPointsAndRefusesTheRouteThatWouldPassThemWritingNothing() {
		double refusedBefore = refusals();
		assertThat(create("alice", 600).statusCode()).isEqualTo(201);
		assertThat(create("bob", 300).statusCode()).as("every user of the office counts").isEqualTo(201);

		HttpResponse<String> refused = assertRefusedWritingNothing(() -> create("alice", 200), 429);
		assertThat(refused.headers().firstValue("Retry-After")).as("seconds until the UTC day ends").hasValue("14400");
		Map<?, ?> problem = RouteApi.json(refused.body());
		assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/point-quota");
		assertThat(((Number) problem.get("limit")).longValue()).isEqualTo(LIMIT);
		assertThat(refused.body()).as("nothing of what the office stored").doesNotContain("900");

		assertThat(create("alice", 100).statusCode()).as("the room that is left is usable").isEqualTo(201);
		assertRefusedWritingNothing(() -> create("bob", 2), 429);
		assertThat(used()).isEqualTo(LIMIT);
		assertThat(refusals() - refusedBefore).isEqualTo(2);
	}

	/** Another replica's create committed after this one's early check: this one is refused inside its transaction. */
	@Test
	void aCreateTheCommittedCountNoLongerHasRoomForIsRefusedInItsTransactionWritingNothing() throws Exception {
		assertThat(create("alice", 10).statusCode()).isEqualTo(201);
		long routesBefore = count("route"), pointsBefore = count("route_point");
		try (Connection other = dataSource.getConnection()) {
			other.setAutoCommit(false);
			try (PreparedStatement charge = other.prepareStatement(
					"UPDATE point_quota SET points = points + 950 WHERE day = ? AND office = '1'")) {
				charge.setObject(1, today());
				assertThat(charge.executeUpdate()).isEqualTo(1);
			}
			CompletableFuture<HttpResponse<String>> late = CompletableFuture.supplyAsync(() -> create("bob", 100));
			// its early check passed on the committed 10: it is writing its points, then waits for the office's row
			awaitUncommittedPoints(pointsBefore + 100);
			other.commit();
			HttpResponse<String> refused = late.get(30, TimeUnit.SECONDS);
			assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
			assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		}
		assertThat(count("route")).as("the route it wrote rolled back").isEqualTo(routesBefore);
		assertThat(count("route_point")).as("and every point of it").isEqualTo(pointsBefore);
		assertThat(used()).isEqualTo(960);
	}

	@Test
	void concurrentCreatorsNeverPassTheQuota() throws Exception {
		long routesBefore = count("route"), pointsBefore = count("route_point");
		int threads = 8, createsEach = 5;
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService creators = Executors.newFixedThreadPool(threads);
		List<Future<List<Integer>>> results = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			String user = t % 2 == 0 ? "alice" : "bob";
			Callable<List<Integer>> creator = () -> {
				start.await();
				List<Integer> statuses = new ArrayList<>();
				for (int i = 0; i < createsEach; i++) {
					statuses.add(create(user, 30).statusCode());
				}
				return statuses;
			};
			results.add(creators.submit(creator));
		}
		start.countDown();
		List<Integer> statuses = new ArrayList<>();
		for (Future<List<Integer>> result : results) {
			statuses.addAll(result.get());
		}
		creators.shutdown();

		assertThat(statuses).as("40 routes of 30 points against 1,000 a day").hasSize(40).containsOnly(201, 429);
		assertThat(statuses.stream().filter(s -> s == 201).count()).as("exactly as many as fit").isEqualTo(33);
		assertThat(used()).isEqualTo(990);
		assertThat(count("route") - routesBefore).isEqualTo(33);
		assertThat(count("route_point") - pointsBefore).as("no point of a refused route").isEqualTo(990);
	}

	/**
	 * An office with no room left is refused before its body is read: a body the server would have to read whole to
	 * find invalid (3 MB of points, never closed) is a 429, where parsed first it was a 400 after all of it.
	 */
	@Test
	void anOfficeAtItsQuotaIsRefusedBeforeItsBodyIsRead() {
		String body = RouteApi.body(RouteApi.path(90_000, 7), false);
		String unfinished = body.substring(0, body.length() - 2) + ",{\"lat\":";
		assertThat(unfinished.length()).as("a large body, under the 4 MB limit").isBetween(3_000_000, 4_000_000);
		assertThat(create("alice", 999).statusCode()).isEqualTo(201);

		double refusedBefore = refusals();
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> api.create("bob", "1", unfinished), 429);
		assertThat(RouteApi.json(refused.body()).get("type")).isEqualTo("https://perflab.dev/problems/point-quota");
		assertThat(refused.headers().firstValue("Retry-After")).as("seconds until the UTC day ends").hasValue("14400");
		assertThat(refusals() - refusedBefore).isEqualTo(1);
		// one point left is no room for a route (two at least); another office's room is its own, and its body is read
		HttpResponse<String> read = api.create("alice", "2", unfinished);
		assertThat(read.statusCode()).as(read.body()).isEqualTo(400);
		assertThat(RouteApi.json(read.body()).get("type")).isEqualTo("https://perflab.dev/problems/malformed-body");
	}

	@Test
	void theQuotaFreesWhenTheDayTurns() {
		clock.set(day.plus(Duration.ofDays(1)).minusSeconds(30));
		assertThat(create("alice", 1000).statusCode()).isEqualTo(201);
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> create("alice", 2), 429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");

		clock.set(clock.instant().plusSeconds(30));
		assertThat(create("alice", 2).statusCode()).as("a new day").isEqualTo(201);
		assertThat(used()).isEqualTo(2);
	}

	@Test
	void aRouteLargerThanAWholeDaysQuotaIs413() {
		HttpResponse<String> refused = assertRefusedWritingNothing(() -> create("alice", 1001), 413);
		assertThat(RouteApi.json(refused.body()).get("type")).isEqualTo("https://perflab.dev/problems/route-too-large");
		assertThat(refused.headers().firstValue("Retry-After")).as("no later day takes it").isEmpty();
	}

	@Test
	void theSeedersDemoRoutesAreNotCounted() {
		routes.createUncounted("1", "seed", new CreateRouteRequest("seeded", null, List.of(),
				List.of(new CreateRouteRequest.PointInput(null, 37.5, 127.0), new CreateRouteRequest.PointInput(null, 37.6, 127.1))));
		assertThat(used()).isZero();
	}

	@Test
	void purgesTheCountersOfDaysPastTheirRetention() {
		for (int daysAgo : List.of(3, 2, 1, 0)) {
			jdbc.sql("INSERT INTO point_quota (day, office, points) VALUES (?, '1', 5)").param(today().minusDays(daysAgo)).update();
		}
		quota.purge();
		assertThat(jdbc.sql("SELECT day FROM point_quota WHERE " + TEST_ROWS + " ORDER BY 1").query(LocalDate.class).list())
			.as("yesterday ended less than a day ago (retention 1 d); the days before it are deleted")
			.containsExactly(today().minusDays(1), today());
	}

	private HttpResponse<String> create(String user, int points) {
		return api.create(user, "1", RouteApi.body(RouteApi.path(points, points), false));
	}

	private HttpResponse<String> assertRefusedWritingNothing(Callable<HttpResponse<String>> call, int status) {
		long routesBefore = count("route"), pointsBefore = count("route_point");
		long counted = jdbc.sql("SELECT COALESCE(SUM(points), 0) FROM point_quota").query(Long.class).single();
		HttpResponse<String> response;
		try {
			response = call.call();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(count("route")).isEqualTo(routesBefore);
		assertThat(count("route_point")).isEqualTo(pointsBefore);
		assertThat(jdbc.sql("SELECT COALESCE(SUM(points), 0) FROM point_quota").query(Long.class).single())
			.as("no point counted").isEqualTo(counted);
		return response;
	}

	/** until a create's points are written, not yet committed (a dirty read sees them) */
	private void awaitUncommittedPoints(long points) throws SQLException {
		try (Connection dirty = dataSource.getConnection()) {
			dirty.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
			// the JDBC connection is used from this thread only
			await("the create writing its points").pollInSameThread()
				.atMost(Duration.ofSeconds(20))
				.pollInterval(Duration.ofMillis(25))
				.until(() -> pointRows(dirty) >= points);
		}
	}

	private static long pointRows(Connection connection) throws SQLException {
		try (var statement = connection.createStatement();
				var rs = statement.executeQuery("SELECT COUNT(*) FROM route_point")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	private long used() {
		return jdbc.sql("SELECT COALESCE(SUM(points), 0) FROM point_quota WHERE day = ? AND office = '1'")
			.param(today()).query(Long.class).single();
	}

	private long count(String table) {
		return jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single();
	}

	private LocalDate today() {
		return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
	}

	private double refusals() {
		return meters.get("perflab.route.quota.refusals").counter().count();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Clocks {

		@Bean
		@Primary
		TestClock testClock() {
			return new TestClock();
		}
	}

}
