package dev.perflab.notifier.event;

import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Component;

/** QR-code events, each owned by one office. */
@Component
public class Events {

	private static final SecureRandom RANDOM = new SecureRandom();

	private final JdbcClient jdbc;

	Events(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	QrEvent create(String office, String user, String title) {
		Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
		String code = code();
		KeyHolder key = new GeneratedKeyHolder();
		jdbc.sql("INSERT INTO qrcode_event (office, title, code, created_by, created_at) VALUES (?, ?, ?, ?, ?)")
			.params(office, title, code, user, Timestamp.from(now))
			.update(key);
		return new QrEvent(key.getKey().longValue(), title, code, now);
	}

	/** The event if this office owns it; another office's event is as absent as one that never existed. */
	public Optional<QrEvent> find(String office, long id) {
		return jdbc.sql("SELECT id, title, code, created_at FROM qrcode_event WHERE id = ? AND office = ?")
			.params(id, office)
			.query((rs, i) -> new QrEvent(rs.getLong("id"), rs.getString("title"), rs.getString("code"),
					rs.getTimestamp("created_at").toInstant()))
			.optional();
	}

	/** 16 random bytes, URL-safe: a code nobody guesses from another event's. */
	static String code() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}
}
