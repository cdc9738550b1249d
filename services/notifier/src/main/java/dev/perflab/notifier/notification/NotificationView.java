package dev.perflab.notifier.notification;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Locale;

/**
 * A notification as {@code GET /v1/notifications/{id}} answers it: to anyone in the office, by an id that counts up,
 * so the recipient is masked as the guestbook masks it and {@code lastError} is a {@link FailureReason}, never the
 * provider's reply.
 */
record NotificationView(long id, String channel, String recipient, String template, String status, int attempts,
		Instant createdAt, Instant nextAttemptAt, Instant sentAt, String lastError) {

	/** a failure recorded before its reason was (a row older than the reason column): a category all the same */
	static final String UNCATEGORIZED = "provider-error";

	static NotificationView of(ResultSet rs) throws SQLException {
		String status = rs.getString("status");
		Channel channel = Channel.valueOf(rs.getString("channel"));
		String reason = rs.getString("last_error_reason");
		return new NotificationView(rs.getLong("id"), channel.name().toLowerCase(Locale.ROOT),
				channel.masked(rs.getString("recipient")), rs.getString("template"), status, rs.getInt("attempts"),
				instant(rs.getTimestamp("created_at")),
				"PENDING".equals(status) ? instant(rs.getTimestamp("next_attempt_at")) : null,
				instant(rs.getTimestamp("sent_at")),
				reason != null || !rs.getBoolean("failed_before") ? reason : UNCATEGORIZED);
	}

	private static Instant instant(Timestamp timestamp) {
		return timestamp == null ? null : timestamp.toInstant();
	}
}
