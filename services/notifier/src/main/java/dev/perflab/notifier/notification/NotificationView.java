package dev.perflab.notifier.notification;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Locale;

/** A notification as {@code GET /v1/notifications/{id}} answers it. */
record NotificationView(long id, String channel, String recipient, String template, String status, int attempts,
		Instant createdAt, Instant nextAttemptAt, Instant sentAt, String lastError) {

	static NotificationView of(ResultSet rs) throws SQLException {
		String status = rs.getString("status");
		return new NotificationView(rs.getLong("id"), rs.getString("channel").toLowerCase(Locale.ROOT),
				rs.getString("recipient"), rs.getString("template"), status, rs.getInt("attempts"),
				instant(rs.getTimestamp("created_at")),
				"PENDING".equals(status) ? instant(rs.getTimestamp("next_attempt_at")) : null,
				instant(rs.getTimestamp("sent_at")), rs.getString("last_error"));
	}

	private static Instant instant(Timestamp timestamp) {
		return timestamp == null ? null : timestamp.toInstant();
	}
}
