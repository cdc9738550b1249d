package dev.perflab.mail.send;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.MailProperties;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.QuotaWindow;

/**
 * Recipients per clock hour, per user and per office ({@code perflab.mail.quota}), counted in {@code recipient_quota}.
 * The check that counts is {@link #charge} inside the send's own transaction: the rows' locks serialize sends of one
 * user or office across every replica, so no hour ever passes a limit, and a refusal rolls its increment back with the
 * mail. {@link #precheck} refuses early, from the committed counts, what the charge would refuse anyway, so an account
 * that keeps sending past its quota costs no EML write and no transaction.
 */
@Component
class RecipientQuota {

	static final QuotaWindow WINDOW = QuotaWindow.HOUR;

	private final JdbcClient jdbc;

	private final MailProperties.Quota settings;

	private final Clock clock;

	private final Map<Scope, Counter> refusals = new EnumMap<>(Scope.class);

	RecipientQuota(JdbcClient jdbc, MailProperties properties, Clock clock, MeterRegistry meters) {
		this.jdbc = jdbc;
		this.settings = properties.quota();
		this.clock = clock;
		for (Scope scope : Scope.values()) {
			// a steady rate of these is an account sending spam, or a limit too small for how an office works
			refusals.put(scope, Counter.builder("perflab.mail.quota.refusals").tag("scope", scope.key).register(meters));
		}
	}

	/** Before any work is done: 429 when the committed counts already leave no room for this mail (no lock taken). */
	void precheck(Account account, int recipients) {
		Instant now = clock.instant();
		List<Limit> limits = limits(account);
		for (Limit limit : limits) {
			if (recipients > limit.size()) {
				throw tooLarge(limit, recipients);
			}
		}
		check(limits, used(limits, window(now)), recipients, now);
	}

	/**
	 * Adds the mail's recipients to its user's and office's counts of this hour and refuses (429) the send when either
	 * is then over its limit. Call as the last statement of the send's transaction: from here to the commit the send
	 * holds its office's row, which every other send of that office waits for.
	 */
	void charge(Account account, int recipients) {
		List<Limit> limits = limits(account);
		if (limits.isEmpty()) {
			return;
		}
		Instant now = clock.instant();
		LocalDateTime window = window(now);
		// both rows in one statement, always in the same order, so two sends never take them the other way round
		List<Object> params = new ArrayList<>();
		limits.forEach(limit -> params.addAll(List.of(window, limit.scope().key, limit.subject(), recipients)));
		params.add(recipients);
		jdbc.sql("INSERT INTO recipient_quota (window_start, scope, subject, recipients) VALUES "
				+ String.join(", ", Collections.nCopies(limits.size(), "(?, ?, ?, ?)"))
				+ " ON DUPLICATE KEY UPDATE recipients = recipients + ?")
			.params(params)
			.update();
		// this transaction's own versions of the rows it just wrote: the latest counts plus this mail, under its locks
		check(limits, used(limits, window), 0, now);
	}

	/** Deletes the counters of hours that ended more than {@code retention} ago, in small batches. */
	void purge() {
		LocalDateTime before = window(clock.instant().minus(settings.retention()).minus(WINDOW.length()));
		int deleted;
		do {
			deleted = jdbc.sql("DELETE FROM recipient_quota WHERE window_start < ? LIMIT 1000").param(before).update();
		}
		while (deleted == 1000);
	}

	private List<Limit> limits(Account account) {
		List<Limit> limits = new ArrayList<>(2);
		if (settings.perOffice() > 0) {
			limits.add(new Limit(Scope.OFFICE, account.office(), settings.perOffice()));
		}
		if (settings.perUser() > 0) {
			limits.add(new Limit(Scope.USER, account.user(), settings.perUser()));
		}
		return limits;
	}

	/** @return each limit's count this hour, 0 where there is no row yet */
	private Map<Scope, Long> used(List<Limit> limits, LocalDateTime window) {
		Map<Scope, Long> used = new EnumMap<>(Scope.class);
		if (limits.isEmpty()) {
			return used;
		}
		List<Object> params = new ArrayList<>();
		params.add(window);
		limits.forEach(limit -> params.addAll(List.of(limit.scope().key, limit.subject())));
		jdbc.sql("SELECT scope, recipients FROM recipient_quota WHERE window_start = ? AND ("
				+ String.join(" OR ", Collections.nCopies(limits.size(), "(scope = ? AND subject = ?)")) + ")")
			.params(params)
			.query((RowCallbackHandler) rs -> used.put(Scope.of(rs.getString("scope")), rs.getLong("recipients")));
		return used;
	}

	/** Refuses when a count plus {@code adding} passes its limit, naming the caller's own quota first. */
	private void check(List<Limit> limits, Map<Scope, Long> used, int adding, Instant now) {
		Optional<Limit> passed = limits.stream()
			.filter(limit -> used.getOrDefault(limit.scope(), 0L) + adding > limit.size())
			.min(Comparator.comparing(Limit::scope));
		if (passed.isPresent()) {
			throw refused(passed.get(), now);
		}
	}

	/** A 429 with the seconds until the hour ends; it names the quota and its size, never what others sent. */
	private ProblemException refused(Limit limit, Instant now) {
		refusals.get(limit.scope()).increment();
		return WINDOW.refused("recipient-quota", "This mail would pass the " + limit.scope().key + " recipient quota of "
				+ limit.size() + " recipients per hour; it frees at the top of the hour (UTC)", now, limit.scope().key,
				limit.size());
	}

	/** A mail over a whole hour's quota would be refused in every hour: 400, not a 429 to retry. */
	private ProblemException tooLarge(Limit limit, int recipients) {
		refusals.get(limit.scope()).increment();
		return described(ProblemException.badRequest("too-many-recipients", "A mail to " + recipients
				+ " recipients passes the " + limit.scope().key + " recipient quota of " + limit.size()
				+ " recipients per hour"), limit);
	}

	private static ProblemException described(ProblemException refused, Limit limit) {
		refused.getBody().setProperty("scope", limit.scope().key);
		refused.getBody().setProperty("limit", limit.size());
		return refused;
	}

	private static LocalDateTime window(Instant instant) {
		return WINDOW.startUtc(instant);
	}

	/** in the order a refusal names them: the caller's own quota first */
	enum Scope {

		USER, OFFICE;

		final String key = name().toLowerCase(Locale.ROOT);

		static Scope of(String key) {
			return valueOf(key.toUpperCase(Locale.ROOT));
		}
	}

	/** @param subject the user's or the office's number */
	private record Limit(Scope scope, long subject, int size) {
	}
}
