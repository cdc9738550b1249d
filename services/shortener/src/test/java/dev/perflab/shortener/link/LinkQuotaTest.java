package dev.perflab.shortener.link;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.MeterRegistry;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.Caller;
import dev.perflab.platform.TestIdentity;
import dev.perflab.platform.TestClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The link quota over real HTTP against the real MongoDB-wire server, at 5 links and 2 KB a user and 8 links an office
 * a day. Each test runs as an office of its own, on a day of its own far ahead, on a clock the test moves.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "perflab.shortener.quota.links-per-user=5", "perflab.shortener.quota.links-per-office=8",
				"perflab.shortener.quota.bytes-per-user=2KB", "perflab.shortener.quota.bytes-per-office=64KB",
				"perflab.shortener.quota.retention=1d" })
class LinkQuotaTest {

	static final Instant FIRST_DAY = Instant.parse("2102-01-01T00:00:00Z");

	static final Query TEST_DAYS = Query.query(Criteria.where("day").gte(Date.from(Instant.parse("2101-12-01T00:00:00Z"))));

	static final AtomicLong DAYS = new AtomicLong();

	/** offices no other test and no earlier run used */
	static final AtomicLong OFFICES = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);

	static final String SHORT = "https://example.com/q/";

	@LocalServerPort
	int port;

	@Autowired
	MongoTemplate mongo;

	@Autowired
	TestClock clock;

	@Autowired
	MeterRegistry meters;

	ShortenerApi api;

	Instant day;

	String office;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
	}

	@BeforeEach
	void aDayAndAnOfficeOfItsOwn() {
		api = new ShortenerApi(port);
		forgetTheTestDays();
		day = FIRST_DAY.plus(Duration.ofDays(DAYS.getAndIncrement()));
		clock.set(day.plus(Duration.ofHours(20)));
		office = String.valueOf(OFFICES.incrementAndGet());
	}

	@AfterEach
	void forgetTheTestDays() {
		mongo.remove(TEST_DAYS, LinkQuota.COLLECTION);
	}

	@Test
	void aUsersLinkPastTheirQuotaIs429WithRetryAfterAndStoresNothing() {
		double refusedBefore = refusals("user");
		for (int i = 0; i < 5; i++) {
			assertThat(create("alice", SHORT + i).statusCode()).isEqualTo(201);
		}
		HttpResponse<String> refused = assertRefusedStoringNothing(() -> create("alice", SHORT + 5), 429);
		assertThat(refused.headers().firstValue("Retry-After")).as("seconds until the UTC day ends").hasValue("14400");
		Map<?, ?> problem = LinkApiTest.JSON.readValue(refused.body(), Map.class);
		assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/link-quota");
		assertThat(problem.get("scope")).isEqualTo("user");
		assertThat(problem.get("limit")).isEqualTo(Map.of("links", 5, "bytes", 2048));
		assertThat(refusals("user") - refusedBefore).isEqualTo(1);
		assertThat(counted("user/" + office + "/alice").getLong("links")).isEqualTo(5);
		assertThat(api.create("alice", office + "0", "{\"url\":\"" + SHORT + "x\"}").statusCode())
			.as("the same login in another office is someone else").isEqualTo(201);
	}

	@Test
	void anotherUserOfTheOfficeCreatesUntilTheOfficesQuotaIsReached() {
		for (int i = 0; i < 5; i++) {
			assertThat(create("alice", SHORT + i).statusCode()).isEqualTo(201);
		}
		assertRefusedStoringNothing(() -> create("alice", SHORT + 5), 429);
		for (int i = 0; i < 3; i++) {
			assertThat(create("bob", SHORT + i).statusCode()).as("bob's own quota, the office's room").isEqualTo(201);
		}
		HttpResponse<String> refused = assertRefusedStoringNothing(() -> create("bob", SHORT + 3), 429);
		assertThat(LinkApiTest.JSON.readValue(refused.body(), Map.class).get("scope")).isEqualTo("office");
		assertRefusedStoringNothing(() -> create("carol", SHORT), 429);
		assertThat(counted("office/" + office).getLong("links")).isEqualTo(8);
		assertThat(counted("user/" + office + "/bob").getLong("links")).as("bob's refused link given back").isEqualTo(3);
		assertThat(counted("user/" + office + "/carol").getLong("links")).isZero();
	}

	@Test
	void theByteQuotaRefusesALongUrlWhileShortOnesPass() {
		String longUrl = SHORT + "a".repeat(1_500);
		assertThat(create("alice", SHORT + 1).statusCode()).isEqualTo(201);
		HttpResponse<String> refused = assertRefusedStoringNothing(() -> create("alice", longUrl), 429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("14400");
		assertThat(create("alice", SHORT + 2).statusCode()).as("a short one still fits").isEqualTo(201);
		Document user = counted("user/" + office + "/alice");
		assertThat(user.getLong("links")).isEqualTo(2);
		assertThat(user.getLong("bytes")).isEqualTo(2 * LinkQuota.bytes(new Caller("alice", office), SHORT + 1));

		HttpResponse<String> tooLarge = assertRefusedStoringNothing(() -> create("bob", SHORT + "b".repeat(1_900)), 413);
		assertThat(LinkApiTest.JSON.readValue(tooLarge.body(), Map.class).get("type"))
			.isEqualTo("https://perflab.dev/problems/link-too-large");
		assertThat(tooLarge.headers().firstValue("Retry-After")).as("no later day takes it").isEmpty();

		// what a link costs besides its URL, owner and office, as stored: its other fields and its two index entries
		RawBsonDocument stored = mongo.getCollection("links")
			.withDocumentClass(RawBsonDocument.class)
			.find(new Document("office", office).append("url", SHORT + 1))
			.first();
		int otherFields = stored.getByteBuffer().remaining() - (SHORT + 1).length() - "alice".length() - office.length();
		assertThat(otherFields + 2 * 40).as("the stated overhead covers the rest of the document and its index entries")
			.isLessThanOrEqualTo(LinkQuota.OVERHEAD);
	}

	@Test
	void aNewUtcDayStartsFreshAndOldDaysAreDeleted() {
		LocalDate today = LocalDate.ofInstant(day, ZoneOffset.UTC);
		clock.set(day.plus(Duration.ofDays(1)).minusSeconds(30));
		for (int i = 0; i < 5; i++) {
			assertThat(create("alice", SHORT + i).statusCode()).isEqualTo(201);
		}
		HttpResponse<String> refused = assertRefusedStoringNothing(() -> create("alice", SHORT + 5), 429);
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("30");
		mongo.insert(new Document("_id", today.minusDays(1) + "/office/" + office).append("day", start(today.minusDays(1)))
			.append("links", 1L).append("bytes", 1L), LinkQuota.COLLECTION);

		clock.set(clock.instant().plusSeconds(30));
		assertThat(create("alice", SHORT + 5).statusCode()).as("a new day").isEqualTo(201);
		assertThat(counted(today.plusDays(1), "user/" + office + "/alice").getLong("links")).isEqualTo(1);
		assertThat(counted(today, "user/" + office + "/alice").getLong("links")).as("yesterday's, kept a day").isEqualTo(5);
		assertThat(mongo.exists(Query.query(Criteria.where("_id").is(today.minusDays(1) + "/office/" + office)),
				LinkQuota.COLLECTION)).as("the day before, purged").isFalse();
	}

	@Test
	void concurrentCreatesOfAUserNeverPassTheirQuota() throws Exception {
		List<Integer> statuses = concurrently(16, t -> create("alice", SHORT + t));
		assertThat(statuses).containsOnly(201, 429);
		assertThat(statuses.stream().filter(s -> s == 201).count()).as("exactly as many as fit").isEqualTo(5);
		assertThat(links()).isEqualTo(5);
		assertThat(counted("user/" + office + "/alice").getLong("links")).isEqualTo(5);
		assertThat(counted("office/" + office).getLong("links")).as("no refused link counted").isEqualTo(5);
	}

	@Test
	void concurrentCreatesOfAnOfficeNeverPassItsQuota() throws Exception {
		List<Integer> statuses = concurrently(16, t -> create("user" + t, SHORT + t));
		assertThat(statuses).containsOnly(201, 429);
		assertThat(statuses.stream().filter(s -> s == 201).count()).as("exactly as many as fit").isEqualTo(8);
		assertThat(links()).isEqualTo(8);
		assertThat(counted("office/" + office).getLong("links")).isEqualTo(8);
		long usersCounted = mongo.find(Query.query(Criteria.where("_id").regex("^" + today() + "/user/" + office + "/")),
				Document.class, LinkQuota.COLLECTION).stream().mapToLong(user -> user.getLong("links")).sum();
		assertThat(usersCounted).as("the users of refused links given theirs back").isEqualTo(8);
	}

	private List<Integer> concurrently(int threads, Creator creator) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<Integer>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int thread = t;
				results.add(pool.submit(() -> {
					start.await();
					return creator.create(thread).statusCode();
				}));
			}
			start.countDown();
			List<Integer> statuses = new ArrayList<>();
			for (Future<Integer> result : results) {
				statuses.add(result.get());
			}
			return statuses;
		}
		finally {
			pool.shutdown();
		}
	}

	private HttpResponse<String> create(String user, String url) {
		return api.create(user, office, "{\"url\":\"" + url + "\"}");
	}

	private HttpResponse<String> assertRefusedStoringNothing(Callable<HttpResponse<String>> call, int status) {
		long linksBefore = links();
		Map<Object, List<Long>> countedBefore = counters();
		HttpResponse<String> response;
		try {
			response = call.call();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(links()).as("no link stored").isEqualTo(linksBefore);
		assertThat(counters()).as("nothing counted").isEqualTo(countedBefore);
		return response;
	}

	/** links and bytes of each counter, those at 0 (a refused link's given back) as no counter */
	private Map<Object, List<Long>> counters() {
		return mongo.findAll(Document.class, LinkQuota.COLLECTION)
			.stream()
			.filter(counter -> counter.getLong("links") != 0 || counter.getLong("bytes") != 0)
			.collect(Collectors.toMap(counter -> counter.get("_id"),
					counter -> List.of(counter.getLong("links"), counter.getLong("bytes"))));
	}

	private long links() {
		return mongo.getCollection("links").countDocuments(new Document("office", office));
	}

	private Document counted(String subject) {
		return counted(today(), subject);
	}

	private Document counted(LocalDate day, String subject) {
		Document counter = mongo.findById(day + "/" + subject, Document.class, LinkQuota.COLLECTION);
		return counter == null ? new Document("links", 0L).append("bytes", 0L) : counter;
	}

	private LocalDate today() {
		return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
	}

	private static Date start(LocalDate day) {
		return Date.from(day.atStartOfDay().toInstant(ZoneOffset.UTC));
	}

	private double refusals(String scope) {
		return meters.get("perflab.shortener.quota.refusals").tag("scope", scope).counter().count();
	}

	@FunctionalInterface
	interface Creator {

		HttpResponse<String> create(int thread);
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
