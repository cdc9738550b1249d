package dev.perflab.notifier.seed;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Base64;
import java.util.SplittableRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;

/**
 * Deterministic demo data at seed 001's scale (1M events, 10M guestbook entries): event n and entry k are the same on
 * every machine (fixed seeds per row), entry k belongs to event ((k - 1) mod events) + 1, and every row carries its
 * number ({@code seed_no}), so a rerun continues after the highest one present and never writes a row twice. Rows go
 * in batched multi-row inserts, one short statement per batch; seeded entries get no SMS (they are history).
 */
@Component
public class Seeder {

	private static final Logger log = LoggerFactory.getLogger(Seeder.class);

	static final String SEEDER = "seed";

	private final JdbcTemplate jdbc;

	private final NotifierProperties.Seed settings;

	Seeder(JdbcTemplate jdbc, NotifierProperties properties) {
		this.jdbc = jdbc;
		this.settings = properties.seed();
	}

	public void seed(int events, long guestbook) {
		seedEvents(events);
		if (guestbook > 0) {
			seedGuestbook(guestbook);
		}
	}

	long highest(String table) {
		Long max = jdbc.queryForObject("SELECT MAX(seed_no) FROM " + table, Long.class);
		return max == null ? 0 : max;
	}

	private void seedEvents(int count) {
		long have = highest("qrcode_event");
		if (have >= count) {
			log.info("{} seeded events present, nothing to add", have);
			return;
		}
		Progress progress = new Progress("events", have, count);
		for (long from = have + 1; from <= count; from += settings.batchSize()) {
			long first = from, last = Math.min(count, from + settings.batchSize() - 1);
			jdbc.batchUpdate("""
					INSERT IGNORE INTO qrcode_event (office, title, code, created_by, seed_no) VALUES (?, ?, ?, ?, ?)""",
					new Rows(first, last) {
						@Override
						void set(PreparedStatement ps, long n) throws SQLException {
							ps.setString(1, settings.office());
							ps.setString(2, "seed event " + n);
							ps.setString(3, code(n));
							ps.setString(4, SEEDER);
							ps.setLong(5, n);
						}
					});
			progress.at(last);
		}
		progress.done();
	}

	private void seedGuestbook(long count) {
		long have = highest("guestbook");
		if (have >= count) {
			log.info("{} seeded guestbook entries present, nothing to add", have);
			return;
		}
		long[] eventIds = eventIds();
		if (eventIds.length == 0) {
			throw new IllegalStateException("seed events first (--perflab.notifier.seed.events=N)");
		}
		Progress progress = new Progress("guestbook entries", have, count);
		for (long from = have + 1; from <= count; from += settings.batchSize()) {
			long first = from, last = Math.min(count, from + settings.batchSize() - 1);
			jdbc.batchUpdate("""
					INSERT IGNORE INTO guestbook (event_id, name, phone, message, seed_no) VALUES (?, ?, ?, ?, ?)""",
					new Rows(first, last) {
						@Override
						void set(PreparedStatement ps, long k) throws SQLException {
							SplittableRandom random = new SplittableRandom(10_000_000L + k);
							ps.setLong(1, eventIds[(int) ((k - 1) % eventIds.length)]);
							ps.setString(2, "guest " + k);
							ps.setString(3, "010" + (10_000_000 + random.nextInt(90_000_000)));
							ps.setString(4, "seeded message " + k + ": " + "congratulations ".repeat(1 + random.nextInt(6)));
							ps.setLong(5, k);
						}
					});
			progress.at(last);
		}
		progress.done();
	}

	/** The seeded events' ids by their number (index n - 1). */
	private long[] eventIds() {
		int events = (int) highest("qrcode_event");
		long[] ids = new long[events];
		jdbc.query("SELECT seed_no, id FROM qrcode_event WHERE seed_no IS NOT NULL",
				rs -> {
					ids[(int) rs.getLong(1) - 1] = rs.getLong(2);
				});
		return ids;
	}

	static String code(long n) {
		byte[] bytes = new byte[16];
		new SplittableRandom(1_000_000_000L + n).nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	private abstract static class Rows implements org.springframework.jdbc.core.BatchPreparedStatementSetter {

		private final long first;

		private final int size;

		Rows(long first, long last) {
			this.first = first;
			this.size = (int) (last - first + 1);
		}

		abstract void set(PreparedStatement ps, long n) throws SQLException;

		@Override
		public void setValues(PreparedStatement ps, int i) throws SQLException {
			set(ps, first + i);
		}

		@Override
		public int getBatchSize() {
			return size;
		}
	}

	/** A line about every 5% (and at least every 10 s), then the rate. */
	private static final class Progress {

		private final String what;

		private final long from;

		private final long to;

		private final long started = System.nanoTime();

		private long lastLine = System.nanoTime();

		private long nextPercent = 5;

		Progress(String what, long from, long to) {
			this.what = what;
			this.from = from;
			this.to = to;
			log.info("seeding {} {} to {}", what, from + 1, to);
		}

		void at(long n) {
			long percent = (n - from) * 100 / Math.max(1, to - from);
			if (percent >= nextPercent || System.nanoTime() - lastLine > 10_000_000_000L) {
				log.info("{}: {}/{} ({}%)", what, n, to, percent);
				nextPercent = percent / 5 * 5 + 5;
				lastLine = System.nanoTime();
			}
		}

		void done() {
			double seconds = (System.nanoTime() - started) / 1e9;
			log.info("seeded {} {} in {} s, {} rows/s", to - from, what, String.format("%.1f", seconds),
					Math.round((to - from) / Math.max(seconds, 0.001)));
		}
	}
}
