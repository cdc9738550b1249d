package dev.perflab.notifier;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.test.context.bean.override.convention.TestBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A limit by cost: one caller's sign-ups at the gateway's 200/s per caller are ~15 cores of BCrypt (strength 10, the
 * default, as here). Bounded per caller, the flood gets 429s and holds one hash at a time while another office signs;
 * without the bound all 16 ran at once and none was refused.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { NotifierTestBase.TEST_DB,
		NotifierTestBase.FAST_SWEEPER_POLL })
class SignUpFloodTest extends NotifierTestBase {

	/** the gateway's per-caller rate (200/s), from this many callers at once */
	static final int FLOODERS = 16;

	static final Duration FLOOD = Duration.ofSeconds(5);

	/** hashes running now, and the most there ever were at once */
	static final AtomicInteger HASHING = new AtomicInteger(), MOST_HASHING = new AtomicInteger();

	@TestBean
	PasswordEncoder memberPasswordEncoder;

	static PasswordEncoder memberPasswordEncoder() {
		return new ConcurrencyCountingEncoder(new BCryptPasswordEncoder(10));
	}

	@Test
	void aSignUpFloodOfOneCallerGets429sAndRunsOneHashAtATimeWhileAnotherOfficeSigns() throws Exception {
		String flooder = office(), guests = office();
		long event = api.event(guests, "opening night");
		for (int i = 0; i < 10; i++) {
			NotifierApi.expect(api.signAs(guests, "kim", event, phone()), 201);
		}
		NotifierApi.expect(api.signUpAs(flooder, "mallory", "m" + phone() + "@example.com"), 201);
		MOST_HASHING.set(0);

		AtomicBoolean flooding = new AtomicBoolean(true);
		ConcurrentLinkedQueue<HttpResponse<String>> answers = new ConcurrentLinkedQueue<>();
		int signings = 0;
		try (ExecutorService pool = Executors.newFixedThreadPool(FLOODERS)) {
			for (int i = 0; i < FLOODERS; i++) {
				pool.submit(() -> {
					while (flooding.get()) {
						answers.add(api.signUpAs(flooder, "mallory", "m" + phone() + "@example.com"));
						// each of the callers at 12.5/s: 200/s together, what the gateway lets one caller through
						Thread.sleep(FLOODERS * 5L);
					}
					return null;
				});
			}
			long end = System.nanoTime() + FLOOD.toNanos();
			Thread.sleep(500);
			while (System.nanoTime() < end) {
				NotifierApi.expect(api.signAs(guests, "kim", event, phone()), 201);
				signings++;
			}
			flooding.set(false);
		}

		List<Integer> statuses = answers.stream().map(HttpResponse::statusCode).toList();
		assertThat(statuses).as("the flood's answers").contains(201, 429).containsOnly(201, 429);
		HttpResponse<String> refused = answers.stream().filter(r -> r.statusCode() == 429).findFirst().orElseThrow();
		assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
		Map<?, ?> problem = NotifierApi.map(refused);
		assertThat(problem.get("type")).isEqualTo("https://perflab.dev/problems/sign-up-busy");
		assertThat(MOST_HASHING.get()).as("the flooding caller's hashes running at once").isEqualTo(1);

		// not timed: on a shared 2-core runner a signing's p95 during the flood moved 1.5-12x with the box's own load
		// (15x without the bound); what the bound guarantees is the count of hashes above
		assertThat(signings).as("another office's signings during the flood, each a 201").isGreaterThanOrEqualTo(5);
	}

	/** The real BCrypt, counting how many hashes run at once. */
	record ConcurrencyCountingEncoder(PasswordEncoder bcrypt) implements PasswordEncoder {

		@Override
		public String encode(CharSequence raw) {
			MOST_HASHING.accumulateAndGet(HASHING.incrementAndGet(), Math::max);
			try {
				return bcrypt.encode(raw);
			}
			finally {
				HASHING.decrementAndGet();
			}
		}

		@Override
		public boolean matches(CharSequence raw, String encoded) {
			return bcrypt.matches(raw, encoded);
		}
	}
}
