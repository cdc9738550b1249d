package dev.perflab.notifier;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.perflab.platform.LabSwitches;
import dev.perflab.platform.work.ClaimLoop;

/**
 * @param dispatch lab switch: {@code after-commit-async} (fixed: the registration and its PENDING notification
 * commit, then a bounded executor sends; what it refuses the sweeper sends) or {@code in-transaction-sync} (seeds 001
 * and 003's start: the provider is called inside the registration's transaction)
 * @param executor the bounded pool that sends after commit (seed 001's 15/100/50)
 * @param workPool the database connections of dispatch and sweeper, a pool apart from the requests'
 * @param sweeper the claim loop that sends what the executor refused, what failed, and what a crash left behind
 * @param sms the SMS provider
 * @param mail the welcome mail's relay and sender
 * @param bcryptStrength BCrypt's log2 rounds for member passwords (10: about 50-100 ms of one core per sign-up)
 * @param hashing how many of those hashes run at once, per caller and per instance
 * @param pageSize guestbook entries per page
 * @param seed the demo data {@code java -jar notifier.jar --perflab.notifier.seed.events=N} writes
 * @param quota notifications a user, an office and a recipient may be sent per window
 */
@ConfigurationProperties("perflab.notifier")
public record NotifierProperties(@DefaultValue("after-commit-async") Dispatch dispatch,
		@DefaultValue Executor executor, @DefaultValue WorkPool workPool, @DefaultValue Sweeper sweeper,
		@DefaultValue Sms sms, @DefaultValue Mail mail, @DefaultValue("10") int bcryptStrength,
		@DefaultValue Hashing hashing, @DefaultValue("20") int pageSize, @DefaultValue Seed seed, @DefaultValue Quota quota) implements LabSwitches {

	@Override
	public Map<String, ?> labSwitches() {
		return Map.of("dispatch", dispatch);
	}

	public enum Dispatch {

		AFTER_COMMIT_ASYNC, IN_TRANSACTION_SYNC

	}

	/**
	 * @param corePoolSize threads kept
	 * @param maxPoolSize threads at most, added only once the queue is full
	 * @param queueCapacity dispatches waiting for a thread; beyond queue and threads a dispatch is refused and its
	 * notification left PENDING for the sweeper (seed 001's DiscardPolicy dropped it)
	 */
	public record Executor(@DefaultValue("15") int corePoolSize, @DefaultValue("100") int maxPoolSize,
			@DefaultValue("50") int queueCapacity) {
	}

	/**
	 * The connections every send uses for its claim and its outcome (one short UPDATE each), and the sweeper for its
	 * claims: a Hikari pool of their own. With one pool, up to 100 dispatch threads queued for the same 10 connections
	 * as the registrations, and a signing waited behind sends (p95 836 ms, 9 pool timeouts at seed 001's profile).
	 * @param maximumPoolSize connections; 4 carry 100 sends/s of two ~1 ms statements each with room for the sweeper
	 * @param connectionTimeout how long a send waits for one; it waits off the request path, so longer than the
	 * requests' 5 s: a send that gives up leaves its row to the sweeper (claim) or to a lease and a resend (outcome)
	 */
	public record WorkPool(@DefaultValue("4") int maximumPoolSize, @DefaultValue("30s") Duration connectionTimeout) {
	}

	/**
	 * @param concurrency notifications the sweeper sends at once per instance
	 * @param pollInterval how often an idle sweeper looks for due notifications (a refused dispatch wakes it at once)
	 * @param grace how long a new notification is left to the executor before the sweeper may take it
	 * @param lease how long a claimed notification stays with one sender; an instance that dies mid-send loses it
	 * after this, and it is sent again (the at-least-once window)
	 * @param maxAttempts attempts before a notification that keeps failing is marked FAILED
	 * @param backoff first retry delay, doubled per attempt
	 * @param maxBackoff the longest retry delay
	 */
	public record Sweeper(@DefaultValue("10") int concurrency, @DefaultValue("500ms") Duration pollInterval,
			@DefaultValue("10s") Duration grace, @DefaultValue("30s") Duration lease,
			@DefaultValue("12") int maxAttempts, @DefaultValue("1s") Duration backoff,
			@DefaultValue("60s") Duration maxBackoff) {

		public Duration backoffAfter(int attempts) {
			return ClaimLoop.backoff(backoff, maxBackoff, attempts);
		}
	}

	/**
	 * @param url where an SMS is POSTed (the local stack's tools/sms-sink)
	 * @param connectTimeout connect timeout
	 * @param timeout the whole exchange's timeout
	 */
	public record Sms(@DefaultValue("http://127.0.0.1:18086/sms") String url,
			@DefaultValue("1s") Duration connectTimeout, @DefaultValue("5s") Duration timeout) {
	}

	/**
	 * A limit by cost, not by count: the gateway passes 200 sign-ups/s per caller, ~15 cores of BCrypt, so one caller's
	 * flood took every core and a guestbook signing of another office waited behind it. Beyond these a sign-up waits
	 * up to {@code queueTimeout} for its turn, then is refused with 429 {@code sign-up-busy} (Retry-After: 1), after its
	 * quota and duplicate checks and before any hash.
	 *
	 * @param perCaller hashes one caller (user of an office) may have running at once; 1 is ~13 sign-ups/s at strength
	 * 10, far beyond what people signing members up one by one ask for
	 * @param perCallerWaiting sign-ups of one caller that may wait for a turn beyond those running; past them a sign-up
	 * is refused at once, so one caller holds at most {@code perCaller + perCallerWaiting} request threads here (a
	 * few: a burst of a client's retries, or a load test's overlapping iterations on a busy machine, waits rather
	 * than fails)
	 * @param concurrency hashes the instance runs at once, whoever asks; 0: one per processor the JVM sees (its
	 * container's CPU limit), so sign-ups alone never queue more work than there are cores
	 * @param queueTimeout how long a sign-up may wait for a turn before it is refused
	 */
	public record Hashing(@DefaultValue("1") int perCaller, @DefaultValue("4") int perCallerWaiting,
			@DefaultValue("0") int concurrency, @DefaultValue("1s") Duration queueTimeout) {

		public Hashing {
			if (perCaller < 1 || perCallerWaiting < 0 || concurrency < 0 || queueTimeout.isNegative()) {
				throw new IllegalArgumentException("perflab.notifier.hashing: per-caller at least 1, per-caller-waiting "
						+ "0 or more, concurrency 0 (the CPU count) or more, queue-timeout not negative");
			}
		}

		public int concurrentHashes() {
			return concurrency > 0 ? concurrency : Runtime.getRuntime().availableProcessors();
		}
	}

	/**
	 * @param from the welcome mail's sender
	 * @param host relay host
	 * @param port relay port
	 * @param connectTimeout connect timeout
	 * @param timeout read and write timeout of one SMTP command
	 * @param heloName the name sent in EHLO
	 */
	public record Mail(@DefaultValue("welcome@notifier.perflab.local") String from,
			@DefaultValue("127.0.0.1") String host, @DefaultValue("13025") int port,
			@DefaultValue("2s") Duration connectTimeout, @DefaultValue("10s") Duration timeout,
			@DefaultValue("notifier.perflab.local") String heloName) {
	}

	/**
	 * @param events QR-code events to write (0: seed nothing); the seed's size is 1,000,000
	 * @param guestbook guestbook entries to write, spread over the events; the seed's size is 10,000,000
	 * @param office the office that owns the seeded events
	 * @param batchSize rows per batched insert
	 */
	public record Seed(@DefaultValue("0") int events, @DefaultValue("0") long guestbook,
			@DefaultValue("1") String office, @DefaultValue("5000") int batchSize) {
	}

	/**
	 * Notifications written per window, counted in {@code notification_quota} (one row per window and subject, shared
	 * by every replica). A guestbook signing sends an SMS with the caller's text to any number and a sign-up a mail to
	 * any address (and costs ~70-100 ms of BCrypt): without these the gateway's per-caller rate (200/s) was the only
	 * limit. The defaults leave room for the repository's own load: {@code scripts/bench/bench-notifier.sh} as one user of
	 * office 1 writes at most ~24,600 notifications a run (seed 001's profile twice, 9,000 each at 50/s then 100/s,
	 * a 2,000 burst at 100/s, 1,600 with the provider down, 2,000 around a kill -9, ~950 sign-ups), and reuses each
	 * k6 phone number once per phase (5 a run); an operator with real users sets them far lower.
	 *
	 * @param window the counting window, aligned to the epoch (1h: each clock hour, UTC)
	 * @param perUser notifications one user (of one office) may cause per window; 0 for no limit
	 * @param perOffice notifications one office may cause per window; 0 for no limit
	 * @param perRecipient notifications one phone number or address may be sent per window, whichever office asks;
	 * 0 for no limit
	 * @param smsPerOffice SMS one office may cause per window; 0 for no limit. An SMS carries the caller's text to any
	 * number at the office's expense (toll fraud: {@code perUser} alone let one user send 60,000 an hour). 500 is a
	 * real office's busiest hour: an event of a few hundred guests signing its guestbook as they arrive, each
	 * confirmed by one SMS; a load lab that signs thousands an hour sets it higher (services/notifier/service.env)
	 * @param retention how long a window's counters are kept after it ends before the sweeper deletes them
	 */
	public record Quota(@DefaultValue("1h") Duration window, @DefaultValue("60000") int perUser,
			@DefaultValue("240000") int perOffice, @DefaultValue("20") int perRecipient,
			@DefaultValue("500") int smsPerOffice, @DefaultValue("1d") Duration retention) {

		public Quota {
			if (perUser < 0 || perOffice < 0 || perRecipient < 0 || smsPerOffice < 0) {
				throw new IllegalArgumentException(
						"perflab.notifier.quota limits are notifications per window, 0 for none");
			}
			if (window.compareTo(Duration.ofSeconds(1)) < 0) {
				throw new IllegalArgumentException("perflab.notifier.quota.window must be at least 1s");
			}
		}
	}
}
