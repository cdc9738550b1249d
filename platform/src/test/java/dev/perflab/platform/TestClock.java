package dev.perflab.platform;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock a test sets: the quotas' windows (an hour, a UTC day) begin and end when the test says, not when the
 * wall clock does. It starts at the time it was made and stays there until {@link #set}.
 */
public final class TestClock extends Clock {

	private volatile Instant now = Instant.now();

	public void set(Instant instant) {
		now = instant;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

	@Override
	public Instant instant() {
		return now;
	}
}
