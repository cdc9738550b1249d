package dev.perflab.notifier.member;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Member passwords hashed within a bound by cost ({@code perflab.notifier.hashing}): the gateway counts requests, and
 * 200 sign-ups/s of one caller were ~15 cores of BCrypt, every core of an instance, so another office's guestbook
 * signing waited behind them. A caller gets its own few turns; the instance runs at most one hash per core; a
 * sign-up that finds no turn within the wait is refused with 429 before it hashes.
 */
@Component
class PasswordHashes {

	private final PasswordEncoder passwords;

	private final NotifierProperties.Hashing settings;

	/** one per caller with a sign-up hashing or waiting; removed when its last one leaves */
	private final ConcurrentHashMap<Caller, Turns> callers = new ConcurrentHashMap<>();

	private final Semaphore instance;

	private final Counter refusals;

	PasswordHashes(PasswordEncoder memberPasswordEncoder, NotifierProperties properties, MeterRegistry meters) {
		this.passwords = memberPasswordEncoder;
		this.settings = properties.hashing();
		// fair: the callers waiting for a core take it in the order they came
		this.instance = new Semaphore(settings.concurrentHashes(), true);
		// a steady rate of these is a caller signing up in a flood, or too few cores for the office's sign-ups
		this.refusals = Counter.builder("perflab.notifier.hashing.refusals")
			.description("sign-ups refused for want of a turn to hash their password")
			.register(meters);
	}

	/**
	 * A turn of this caller's, taken before the sign-up's checks: a caller with as many sign-ups in here as may be
	 * (running and waiting) is refused at once, before a single query, so a flood's refusals cost next to nothing.
	 */
	Turn admit(Caller caller) {
		boolean[] admitted = { false };
		Turns turns = callers.compute(caller, (key, known) -> {
			Turns current = known != null ? known : new Turns(settings.perCaller());
			if (current.inside < settings.perCaller() + settings.perCallerWaiting()) {
				current.inside++;
				admitted[0] = true;
			}
			return current;
		});
		if (!admitted[0]) {
			throw busy();
		}
		return new Turn(caller, turns);
	}

	/** A caller's place in here, left on close; {@link #hash} waits for the caller's and the instance's turn. */
	final class Turn implements AutoCloseable {

		private final Caller caller;

		private final Turns turns;

		private Turn(Caller caller, Turns turns) {
			this.caller = caller;
			this.turns = turns;
		}

		/** The password's hash, once this caller and the instance have a turn for it; 429 when none comes in time. */
		String hash(String password) {
			long deadline = System.nanoTime() + settings.queueTimeout().toNanos();
			if (!acquire(turns.running, deadline)) {
				throw busy();
			}
			try {
				if (!acquire(instance, deadline)) {
					throw busy();
				}
				try {
					return passwords.encode(password);
				}
				finally {
					instance.release();
				}
			}
			finally {
				turns.running.release();
			}
		}

		@Override
		public void close() {
			callers.computeIfPresent(caller, (key, known) -> --known.inside == 0 ? null : known);
		}
	}

	private static boolean acquire(Semaphore semaphore, long deadline) {
		try {
			return semaphore.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private ProblemException busy() {
		refusals.increment();
		ProblemException busy = new ProblemException(HttpStatus.TOO_MANY_REQUESTS, "sign-up-busy",
				"Too many sign-ups are being processed; nothing was written, try again in a second");
		busy.getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
		return busy;
	}

	/** {@code inside} is changed only in the map's compute, under its lock for this caller */
	private static final class Turns {

		final Semaphore running;

		int inside;

		Turns(int perCaller) {
			this.running = new Semaphore(perCaller, true);
		}
	}
}
