package dev.perflab.notifier;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.platform.TestIdentity;
import dev.perflab.smssink.SmsSink;

/**
 * The notifier over real HTTP against the local MariaDB ({@code perflab_notifier_test}), a real SMS endpoint
 * (tools/sms-sink, in-process on a free port) and the real SMTP server (GreenMail, scripts/stack/stack.sh stores). Each
 * class gets its own context, closed after it: its sweeper must not take another class's notifications.
 */
@DirtiesContext
abstract class NotifierTestBase {

	static final String TEST_DB = "spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_notifier_test?rewriteBatchedStatements=true";

	/** the sweeper fast, so a test waits seconds, not minutes */
	static final String FAST_SWEEPER_POLL = "perflab.notifier.sweeper.poll-interval=50ms";

	static final String FAST_SWEEPER_GRACE = "perflab.notifier.sweeper.grace=2s";

	static final String FAST_BACKOFF = "perflab.notifier.sweeper.backoff=100ms";

	static final String FAST_MAX_BACKOFF = "perflab.notifier.sweeper.max-backoff=500ms";

	static final String FAST_SMS_TIMEOUT = "perflab.notifier.sms.connect-timeout=300ms";

	// phones and offices unique across runs against the same database
	private static final AtomicLong NUMBERS = new AtomicLong(System.currentTimeMillis() % 10_000_000L * 100);

	static final SmsSink SINK = SmsSink.start(0, Duration.ofMillis(20), 0);

	@LocalServerPort
	int port;

	@Autowired
	JdbcClient jdbc;

	NotifierApi api;

	@DynamicPropertySource
	static void wiring(DynamicPropertyRegistry registry) {
		registry.add("perflab.notifier.sms.url", SINK::url);
		TestIdentity.trust(registry, "gateway");
	}

	@BeforeEach
	void client() {
		api = new NotifierApi(port);
		SINK.up();
		SINK.latency(Duration.ofMillis(20));
		SINK.failureRate(0);
		SINK.onDelivery(id -> {
		});
	}

	@AfterAll
	static void closeSink() {
		SINK.onDelivery(id -> {
		});
	}

	/** A phone number no other test or run uses. */
	static String phone() {
		return "010" + (10_000_000 + NUMBERS.incrementAndGet() % 90_000_000);
	}

	/** {@link #phone()} as the service stores and counts it: E.164, the national 0 replaced by +82. */
	static String e164(String national) {
		return "+82" + national.substring(1);
	}

	/** A national number's E.164 form as a read shows it: its last four digits (the guestbook's rule). */
	static String masked(String national) {
		return "*".repeat(e164(national).length() - 4) + national.substring(national.length() - 4);
	}

	/** An office no other test or run uses. */
	static String office() {
		return "t" + NUMBERS.incrementAndGet();
	}

	long rows(String table) {
		return jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single();
	}

	static String messageId(long notification) {
		return "notification-" + notification;
	}
}
