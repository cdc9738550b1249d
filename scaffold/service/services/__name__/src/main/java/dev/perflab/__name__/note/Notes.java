package dev.perflab.__name__.note;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;

import dev.perflab.platform.Caller;

/** The notes in MySQL, each an office's own: another office's note is not found. */
@Repository
class Notes {

	private final JdbcClient jdbc;

	Notes(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	Note create(Caller caller, String text) {
		Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
		GeneratedKeyHolder key = new GeneratedKeyHolder();
		jdbc.sql("INSERT INTO note (office, text, created_by, created_at) VALUES (?, ?, ?, ?)")
			.params(caller.office(), text, caller.user(), now)
			.update(key);
		return new Note(key.getKeyAs(Number.class).longValue(), text, caller.user(), now);
	}

	Optional<Note> find(String office, long id) {
		return jdbc.sql("SELECT id, text, created_by, created_at FROM note WHERE office = ? AND id = ?")
			.params(office, id)
			.query((rs, n) -> new Note(rs.getLong("id"), rs.getString("text"), rs.getString("created_by"),
					rs.getTimestamp("created_at").toInstant()))
			.optional();
	}
}
