package dev.perflab.notifier.guestbook;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.notifier.Masking;
import dev.perflab.notifier.event.Events;
import dev.perflab.notifier.event.QrEvent;
import dev.perflab.notifier.notification.Channel;
import dev.perflab.notifier.notification.NotificationQuota;
import dev.perflab.notifier.notification.Notifications;
import dev.perflab.notifier.notification.Outgoing;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Seed 001's registration: the entry and its PENDING SMS commit in one short transaction (a lookup and two inserts);
 * what happens to the SMS then is the dispatch switch's business.
 */
@Component
class Guestbook {

	static final int MAX_PAGE = 10_000;

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	private final Events events;

	private final Notifications notifications;

	private final NotificationQuota quota;

	Guestbook(JdbcClient jdbc, TransactionTemplate tx, Events events, Notifications notifications,
			NotificationQuota quota) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.events = events;
		this.notifications = notifications;
		this.quota = quota;
	}

	/**
	 * A signing sends an SMS to any number: refused before anything is written when the caller or the number has no
	 * quota left (the precheck, on the transaction's connection: a signing still takes one), and charged last.
	 */
	Entry sign(Caller caller, long eventId, String name, String phone, String message) {
		String office = caller.office();
		return tx.execute(status -> {
			quota.precheck(office, caller.user(), Channel.SMS, phone);
			QrEvent event = events.find(office, eventId).orElseThrow(() -> ProblemException.notFound("No event " + eventId));
			Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
			KeyHolder key = new GeneratedKeyHolder();
			jdbc.sql("INSERT INTO guestbook (event_id, name, phone, message, created_at) VALUES (?, ?, ?, ?, ?)")
				.params(eventId, name, phone, message, Timestamp.from(now))
				.update(key);
			long id = key.getKey().longValue();
			long notification = notifications.enqueue(new Outgoing(office, caller.user(), Channel.SMS, phone,
					"guestbook-signed", null,
					name + ", thank you for signing the guestbook of \"" + event.title() + "\"."));
			return new Entry(id, eventId, name, phone, message, now, notification);
		});
	}

	Page page(String office, long eventId, int page, int size) {
		if (page < 0 || page > MAX_PAGE) {
			throw ProblemException.badRequest("invalid-page", "page must be between 0 and " + MAX_PAGE);
		}
		events.find(office, eventId).orElseThrow(() -> ProblemException.notFound("No event " + eventId));
		List<Entry> entries = jdbc.sql("""
				SELECT id, event_id, name, phone, message, created_at FROM guestbook WHERE event_id = ?
				ORDER BY id DESC LIMIT ? OFFSET ?""")
			.params(eventId, size + 1, (long) page * size)
			.query((rs, i) -> new Entry(rs.getLong("id"), rs.getLong("event_id"), rs.getString("name"),
					Masking.phone(rs.getString("phone")), rs.getString("message"),
					rs.getTimestamp("created_at").toInstant(), null))
			.list();
		boolean more = entries.size() > size;
		return new Page(eventId, page, size, more, more ? entries.subList(0, size) : entries);
	}
}
