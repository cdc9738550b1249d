package dev.perflab.shortener.id;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * 64-bit ids: 41 bits of milliseconds since 2024-01-01, 10 bits of worker, 12 bits of sequence (4,096 ids per ms
 * per worker).
 * <p>
 * Lock-free: the last timestamp and sequence live packed in one {@link AtomicLong} and advance by compare-and-set.
 * Seed 004 measured its {@code synchronized} generator at 2,674 ids/s and its CAS one at 2,919 ids/s under 100
 * threads; both were bound by the lock and sleep around them, not by the bit layout.
 * <p>
 * Clock rollback: ids keep coming from the last timestamp seen (monotonic, never reused) while the clock is behind
 * by at most {@code maxRollbackMillis}; when the sequence of that millisecond runs out the caller waits for the
 * clock to catch up. A larger rollback is refused with {@link ClockMovedBackwardsException} rather than risking a
 * duplicate.
 */
public final class Snowflake {

	public static final long EPOCH_MILLIS = 1_704_067_200_000L;

	static final int WORKER_BITS = 10;

	static final int SEQUENCE_BITS = 12;

	public static final int MAX_WORKER = (1 << WORKER_BITS) - 1;

	static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

	private final long workerBits;

	private final LongSupplier clock;

	private final long maxRollbackMillis;

	/** (millis since epoch << SEQUENCE_BITS) | sequence of the last id handed out. */
	private final AtomicLong state = new AtomicLong();

	public Snowflake(int workerId, LongSupplier clock, long maxRollbackMillis) {
		if (workerId < 0 || workerId > MAX_WORKER) {
			throw new IllegalArgumentException("worker id must be 0.." + MAX_WORKER + ", was " + workerId);
		}
		this.workerBits = (long) workerId << SEQUENCE_BITS;
		this.clock = clock;
		this.maxRollbackMillis = maxRollbackMillis;
	}

	public long nextId() {
		while (true) {
			long last = state.get();
			long lastMillis = last >>> SEQUENCE_BITS;
			long now = clock.getAsLong() - EPOCH_MILLIS;
			long next;
			if (now > lastMillis) {
				next = now << SEQUENCE_BITS;
			}
			else if (lastMillis - now > maxRollbackMillis) {
				throw new ClockMovedBackwardsException(lastMillis - now);
			}
			else if ((last & SEQUENCE_MASK) < SEQUENCE_MASK) {
				next = last + 1;
			}
			else {
				// the 4,096 ids of this millisecond are gone: wait for the clock, never borrow from the future
				Thread.onSpinWait();
				continue;
			}
			if (state.compareAndSet(last, next)) {
				long millis = next >>> SEQUENCE_BITS;
				return (millis << (WORKER_BITS + SEQUENCE_BITS)) | workerBits | (next & SEQUENCE_MASK);
			}
		}
	}

	public static int workerOf(long id) {
		return (int) ((id >>> SEQUENCE_BITS) & MAX_WORKER);
	}

	public static long millisOf(long id) {
		return (id >>> (WORKER_BITS + SEQUENCE_BITS)) + EPOCH_MILLIS;
	}
}
