package dev.perflab.notifier.member;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.notifier.notification.Channel;
import dev.perflab.notifier.notification.NotificationQuota;
import dev.perflab.notifier.notification.Notifications;
import dev.perflab.notifier.notification.Outgoing;
import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;

/**
 * Seed 003's sign-up: the quotas are checked and the password is hashed first (BCrypt costs tens of milliseconds of
 * CPU, bounded per caller and per instance by {@link PasswordHashes}, and no connection is held for it), then the member and its PENDING welcome mail commit in one short
 * transaction. Seed 003's sign-up waited 1 s on the mail inside the request; here the mail is the dispatch switch's
 * business.
 */
@Component
class Members {

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	private final Notifications notifications;

	private final NotificationQuota quota;

	private final PasswordHashes passwords;

	Members(JdbcClient jdbc, TransactionTemplate tx, Notifications notifications, NotificationQuota quota,
			PasswordHashes passwords) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.notifications = notifications;
		this.quota = quota;
		this.passwords = passwords;
	}

	Member signUp(Caller caller, String email, String name, String password) {
		String office = caller.office();
		String hash;
		try (PasswordHashes.Turn turn = passwords.admit(caller)) {
			// a caller or an address over quota, and a known email, are refused before BCrypt spends its ~70 ms of a
			// core (sign-ups are a mail to any address and a CPU burner); the charge and the unique key still decide a
			// race
			quota.precheck(office, caller.user(), Channel.MAIL, email);
			if (jdbc.sql("SELECT COUNT(*) FROM member WHERE office = ? AND email = ?").params(office, email)
				.query(Long.class).single() > 0) {
				throw duplicate();
			}
			hash = turn.hash(password);
		}
		Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
		try {
			return tx.execute(status -> {
				KeyHolder key = new GeneratedKeyHolder();
				jdbc.sql("INSERT INTO member (office, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)")
					.params(office, email, name, hash, Timestamp.from(now))
					.update(key);
				long id = key.getKey().longValue();
				long notification = notifications.enqueue(new Outgoing(office, caller.user(), Channel.MAIL, email,
						"member-welcome", "Welcome to perflab, " + name, "Hello " + name + ",\n\nyour account " + email
								+ " is ready. Welcome aboard.\n\nperflab"));
				return new Member(id, email, name, now, notification);
			});
		}
		catch (DuplicateKeyException e) {
			throw duplicate();
		}
	}

	private static ProblemException duplicate() {
		return new ProblemException(HttpStatus.CONFLICT, "duplicate-email", "A member with this email exists");
	}
}
