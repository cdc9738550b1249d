package dev.perflab.route.dispatch;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.perflab.platform.ProblemException;
import dev.perflab.platform.QuotaWindow;
import dev.perflab.route.RouteProperties;

/**
 * Route points per office and UTC day ({@code perflab.route.quota.points-per-office}), counted in {@code point_quota}.
 * The check that counts is {@link #charge}, the last statement of the create's transaction: the office's row lock
 * serializes its creates across every replica for the rest of their commit, so no day passes the limit, and a refusal
 * rolls back with the route. {@link #precheck} refuses early, from the committed count, what the charge would refuse,
 * before a single point is written.
 */
@Component
class PointQuota {

	private final JdbcClient jdbc;

	private final RouteProperties.Quota settings;

	private final Clock clock;

	private final Counter refusals;

	/** the last day this instance purged old counters on (once a day is enough) */
	private volatile LocalDate purged;

	PointQuota(JdbcClient jdbc, RouteProperties properties, Clock clock, MeterRegistry meters) {
		this.jdbc = jdbc;
		this.settings = properties.quota();
		this.clock = clock;
		// a steady rate of these is an office writing routes far beyond dispatching, or a limit too small for one
		this.refusals = Counter.builder("perflab.route.quota.refusals").register(meters);
	}

	/**
	 * Before anything is written: 413 when the route alone passes a whole day's quota, 429 when the committed count
	 * leaves no room for it. Makes sure the day's row exists, so the charge only ever updates it (no two creates
	 * inserting one new row inside their transactions, where InnoDB's gap locks can deadlock them).
	 */
	void precheck(String office, int points) {
		if (settings.pointsPerOffice() == 0) {
			return;
		}
		if (points > settings.pointsPerOffice()) {
			refusals.increment();
			ProblemException tooLarge = new ProblemException(HttpStatus.CONTENT_TOO_LARGE, "route-too-large",
					"A route of " + points + " points passes the office's quota of " + settings.pointsPerOffice()
							+ " points per day");
			tooLarge.getBody().setProperty("limit", settings.pointsPerOffice());
			throw tooLarge;
		}
		Instant now = clock.instant();
		LocalDate day = day(now);
		Optional<Long> used = used(day, office);
		if (used.orElse(0L) + points > settings.pointsPerOffice()) {
			throw refused(now);
		}
		if (used.isEmpty()) {
			jdbc.sql("INSERT IGNORE INTO point_quota (day, office, points) VALUES (?, ?, 0)").params(day, office).update();
			purgeOncePerDay(day);
		}
	}

	/**
	 * Before the body is read, from the office alone: 429 when the committed count leaves no room for the smallest
	 * route ({@value RouteValidation#MIN_POINTS} points). An office at its quota was refused only after its body was
	 * parsed (up to 4 MB, 50,000 points of objects), so each refusal cost what a create does; now it costs one read.
	 */
	void beforeBody(String office) {
		if (settings.pointsPerOffice() == 0) {
			return;
		}
		Instant now = clock.instant();
		if (used(day(now), office).orElse(0L) + RouteValidation.MIN_POINTS > settings.pointsPerOffice()) {
			throw refused(now);
		}
	}

	/** Adds the route's points to its office's count of the day; 429 when that passes the limit. Last in the transaction. */
	void charge(String office, int points) {
		if (settings.pointsPerOffice() == 0) {
			return;
		}
		Instant now = clock.instant();
		LocalDate day = day(now);
		jdbc.sql("INSERT INTO point_quota (day, office, points) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE points = points + ?")
			.params(day, office, points, points)
			.update();
		// this transaction's own version of the row it just wrote: the latest count plus this route, under its lock
		if (used(day, office).orElseThrow() > settings.pointsPerOffice()) {
			throw refused(now);
		}
	}

	/** Deletes the counters of days that ended more than {@code retention} ago, in small batches. */
	void purge() {
		// a day ends at the start of the next: every day before the one retention ago has ended longer ago than that
		LocalDate before = day(clock.instant().minus(settings.retention()));
		int deleted;
		do {
			deleted = jdbc.sql("DELETE FROM point_quota WHERE day < ? LIMIT 1000").param(before).update();
		}
		while (deleted == 1000);
	}

	private void purgeOncePerDay(LocalDate day) {
		if (!day.equals(purged)) {
			purged = day;
			purge();
		}
	}

	private Optional<Long> used(LocalDate day, String office) {
		return jdbc.sql("SELECT points FROM point_quota WHERE day = ? AND office = ?")
			.params(day, office)
			.query(Long.class)
			.optional();
	}

	/** A 429 with the seconds until the UTC day ends; it names the quota and its size, never what others stored. */
	private ProblemException refused(Instant now) {
		refusals.increment();
		return QuotaWindow.DAY.refused("point-quota", "This route would pass the office's quota of "
				+ settings.pointsPerOffice() + " route points per day; it frees at midnight (UTC)", now, null,
				settings.pointsPerOffice());
	}

	private static LocalDate day(Instant instant) {
		return QuotaWindow.day(instant);
	}
}
