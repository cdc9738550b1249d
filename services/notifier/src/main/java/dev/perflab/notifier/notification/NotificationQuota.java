package dev.perflab.notifier.notification;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.QuotaWindow;

/**
 * Notifications per window, per user, per office, per recipient and SMS per office ({@code perflab.notifier.quota}),
 * counted in
 * {@code notification_quota} as mail counts its recipients. The count that decides is {@link #charge}, inside the
 * registration's transaction: the counter rows' locks serialize registrations of one office (and of one recipient)
 * across every replica, so no window passes a limit, and a refusal rolls its increments back with the registration.
 * {@link #precheck} refuses early, from the committed counts and with no lock, what the charge would refuse anyway:
 * a caller over quota costs one indexed read, no BCrypt and no transaction.
 */
@Component
public class NotificationQuota {

	private final JdbcClient jdbc;

	private final JdbcClient work;

	private final NotifierProperties.Quota settings;

	private final Clock clock;

	private final Map<Scope, Counter> refusals = new EnumMap<>(Scope.class);

	NotificationQuota(JdbcClient jdbc, WorkDatabase work, NotifierProperties properties, Clock clock,
			MeterRegistry meters) {
		this.jdbc = jdbc;
		this.work = work.jdbc();
		this.settings = properties.quota();
		this.clock = clock;
		for (Scope scope : Scope.values()) {
			// a steady rate of these is a caller sending to strangers, or a limit too small for how an office works
			refusals.put(scope, Counter.builder("perflab.notifier.quota.refusals")
				.description("registrations refused for a notification quota")
				.tag("scope", scope.key)
				.register(meters));
		}
	}

	/** Before any work is done: 429 when the committed counts leave no room for one more notification. */
	public void precheck(String office, String user, Channel channel, String recipient) {
		Instant now = clock.instant();
		List<Limit> limits = limits(office, user, channel, recipient);
		check(limits, used(limits, window(now)), 1, now);
	}

	/**
	 * Adds one to each count of this window and refuses (429) when one is then over its limit. The last statement of
	 * the registration's transaction: from here to the commit it holds its office's counter row, which every other
	 * registration of that office waits for.
	 */
	void charge(String office, String user, Channel channel, String recipient) {
		List<Limit> limits = limits(office, user, channel, recipient);
		if (limits.isEmpty()) {
			return;
		}
		Instant now = clock.instant();
		LocalDateTime window = window(now);
		// every row in one statement, in the key's order (office, recipient, sms, user): two registrations never take
		// the same two rows the other way round
		List<Object> params = new ArrayList<>();
		limits.forEach(limit -> params.addAll(List.of(window, limit.scope().key, limit.office(), limit.subject())));
		jdbc.sql("INSERT INTO notification_quota (window_start, scope, office, subject, notifications) VALUES "
				+ String.join(", ", Collections.nCopies(limits.size(), "(?, ?, ?, ?, 1)"))
				+ " ON DUPLICATE KEY UPDATE notifications = notifications + 1")
			.params(params)
			.update();
		// this transaction's own versions of the rows it just wrote: the latest counts with this one, under its locks
		check(limits, used(limits, window), 0, now);
	}

	/**
	 * Deletes the counters of windows that ended more than {@code retention} ago, in small batches, on the work pool
	 * (the sweeper's): never a connection a request is waiting for.
	 */
	void purge() {
		LocalDateTime before = window(clock.instant().minus(settings.retention()).minus(settings.window()));
		int deleted;
		do {
			deleted = work.sql("DELETE FROM notification_quota WHERE window_start < ? LIMIT 1000")
				.param(before)
				.update();
		}
		while (deleted == 1000);
	}

	/** in the order of the table's key, the order {@link #charge} locks them in */
	private List<Limit> limits(String office, String user, Channel channel, String recipient) {
		List<Limit> limits = new ArrayList<>(4);
		if (settings.perOffice() > 0) {
			limits.add(new Limit(Scope.OFFICE, office, "", settings.perOffice()));
		}
		if (settings.perRecipient() > 0) {
			limits.add(new Limit(Scope.RECIPIENT, "", recipient, settings.perRecipient()));
		}
		if (channel == Channel.SMS && settings.smsPerOffice() > 0) {
			limits.add(new Limit(Scope.SMS, office, "", settings.smsPerOffice()));
		}
		if (settings.perUser() > 0) {
			limits.add(new Limit(Scope.USER, office, user, settings.perUser()));
		}
		return limits;
	}

	/** @return each limit's count in this window, 0 where there is no row yet */
	private Map<Scope, Long> used(List<Limit> limits, LocalDateTime window) {
		Map<Scope, Long> used = new EnumMap<>(Scope.class);
		if (limits.isEmpty()) {
			return used;
		}
		List<Object> params = new ArrayList<>();
		params.add(window);
		limits.forEach(limit -> params.addAll(List.of(limit.scope().key, limit.office(), limit.subject())));
		jdbc.sql("SELECT scope, notifications FROM notification_quota WHERE window_start = ? AND ("
				+ String.join(" OR ", Collections.nCopies(limits.size(), "(scope = ? AND office = ? AND subject = ?)"))
				+ ")")
			.params(params)
			.query((RowCallbackHandler) rs -> used.put(Scope.of(rs.getString("scope")), rs.getLong("notifications")));
		return used;
	}

	private void check(List<Limit> limits, Map<Scope, Long> used, int adding, Instant now) {
		for (Limit limit : limits) {
			if (used.getOrDefault(limit.scope(), 0L) + adding > limit.size()) {
				throw refused(limit, now);
			}
		}
	}

	/**
	 * A 429 with the seconds until the window ends. It names the quota and its size, never the counts, nor which
	 * office sent to a recipient.
	 */
	private ProblemException refused(Limit limit, Instant now) {
		refusals.get(limit.scope()).increment();
		return new QuotaWindow(settings.window()).refused("notification-quota", "This would pass the "
				+ limit.scope().key + " notification quota of " + limit.size() + " per "
				+ settings.window().toString().substring(2).toLowerCase(Locale.ROOT) + "; nothing was written", now,
				limit.scope().key, limit.size());
	}

	/** the start of the window {@code instant} falls in: windows are aligned to the epoch */
	private LocalDateTime window(Instant instant) {
		return new QuotaWindow(settings.window()).startUtc(instant);
	}

	/** in the order of the table's key; {@code sms} counts an office's SMS (office, subject '') */
	enum Scope {

		OFFICE, RECIPIENT, SMS, USER;

		final String key = name().toLowerCase(Locale.ROOT);

		static Scope of(String key) {
			return valueOf(key.toUpperCase(Locale.ROOT));
		}
	}

	/** @param office the office counted ({@code ""} for a recipient: counted whichever office asks) */
	private record Limit(Scope scope, String office, String subject, int size) {
	}
}
