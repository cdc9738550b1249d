package dev.perflab.shortener.link;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;
import dev.perflab.platform.QuotaWindow;
import dev.perflab.shortener.ShortenerProperties;

/**
 * Links and bytes per user and per office and UTC day ({@code perflab.shortener.quota}), counted in MongoDB, the
 * links' own store (Redis here is a cache that fails fast: a quota counted there would let everything through while
 * it is down). One document per day and user or office; {@link #charge} adds a link to it in one conditional upsert
 * that matches only while the link still fits, so MongoDB serializes the creates of every replica on it and no day
 * passes a limit. A counter with no room does not match, and the upsert's insert of a second one with its {@code _id}
 * fails (duplicate key): that is the refusal. The user is charged first, then the office; a refusal of the office gives
 * the user's link back, and so does a link that is then not stored ({@link #refund}).
 */
@Component
class LinkQuota {

	/**
	 * Bytes a link costs besides its URL, owner and office: the rest of its document (164 bytes, measured in
	 * {@code LinkQuotaTest}) and its two index entries ({@code _id}, {@code code}; ~40 bytes each), rounded up.
	 */
	static final int OVERHEAD = 256;

	static final String COLLECTION = "link_quota";

	private final MongoTemplate mongo;

	private final ShortenerProperties.Quota settings;

	private final Clock clock;

	private final Map<Scope, Counter> refusals = new EnumMap<>(Scope.class);

	/** the last day this instance purged old counters on (once a day is enough) */
	private volatile LocalDate purged;

	LinkQuota(MongoTemplate mongo, ShortenerProperties properties, Clock clock, MeterRegistry meters) {
		this.mongo = mongo;
		this.settings = properties.quota();
		this.clock = clock;
		for (Scope scope : Scope.values()) {
			// a steady rate of these is a caller filling the store with links, or a limit too small for an office
			refusals.put(scope, Counter.builder("perflab.shortener.quota.refusals").tag("scope", scope.key).register(meters));
		}
	}

	/** What one link of this URL costs in the store. */
	static long bytes(Caller caller, String url) {
		return utf8(url) + utf8(caller.user()) + utf8(caller.office()) + OVERHEAD;
	}

	private static int utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8).length;
	}

	/**
	 * Counts one link of {@code url} against its user's and office's quotas of the day: 413 when it alone passes a whole
	 * day's byte quota, 429 when either has no room left for it (nothing stays counted then).
	 * @return what was counted, for {@link #refund} when the link is not stored after all
	 */
	Charge charge(Caller caller, String url) {
		long bytes = bytes(caller, url);
		List<Limit> limits = limits(caller);
		for (Limit limit : limits) {
			if (limit.bytes() > 0 && bytes > limit.bytes()) {
				throw tooLarge(limit, bytes);
			}
		}
		Instant now = clock.instant();
		LocalDate day = day(now);
		List<String> counted = new ArrayList<>(limits.size());
		for (Limit limit : limits) {
			String key = key(day, limit);
			if (!add(key, day, limit, bytes)) {
				refund(new Charge(counted, bytes));
				throw refused(limit, now);
			}
			counted.add(key);
		}
		if (!limits.isEmpty()) {
			purgeOncePerDay(day);
		}
		return new Charge(counted, bytes);
	}

	/** Takes back what {@link #charge} counted for a link that was not stored. */
	void refund(Charge charge) {
		for (String key : charge.keys()) {
			mongo.updateFirst(Query.query(Criteria.where("_id").is(key)),
					new Update().inc("links", -1L).inc("bytes", -charge.bytes()), COLLECTION);
		}
	}

	/** Deletes the counters of days that ended more than {@code retention} ago. */
	void purge() {
		// a day ends at the start of the next: every day before the one retention ago has ended longer ago than that
		LocalDate before = day(clock.instant().minus(settings.retention()));
		mongo.remove(Query.query(Criteria.where("day").lt(start(before))), COLLECTION);
	}

	/** One link more on the counter {@code key} if it still fits under {@code limit}; false when it does not. */
	private boolean add(String key, LocalDate day, Limit limit, long bytes) {
		Criteria room = Criteria.where("_id").is(key);
		if (limit.links() > 0) {
			room = room.and("links").lte(limit.links() - 1);
		}
		if (limit.bytes() > 0) {
			room = room.and("bytes").lte(limit.bytes() - bytes);
		}
		Update count = new Update().inc("links", 1L).inc("bytes", bytes).setOnInsert("day", start(day));
		for (int attempt = 1;; attempt++) {
			try {
				mongo.upsert(Query.query(room), count, COLLECTION);
				return true;
			}
			catch (DuplicateKeyException e) {
				// the day's counter exists without room for this link; or it did not, and another create inserted it
				// between this upsert's match and its insert (MongoDB does not retry an upsert with a range in its
				// filter): asked again, the counter exists and the answer is final
				if (attempt == 2) {
					return false;
				}
			}
		}
	}

	private void purgeOncePerDay(LocalDate day) {
		if (!day.equals(purged)) {
			purged = day;
			purge();
		}
	}

	/** the caller's own quota first: a refusal names it */
	private List<Limit> limits(Caller caller) {
		List<Limit> limits = new ArrayList<>(2);
		if (settings.linksPerUser() > 0 || settings.bytesPerUser().toBytes() > 0) {
			// a user is a login of an office: the same login in another office is someone else
			limits.add(new Limit(Scope.USER, caller.office() + "/" + caller.user(), settings.linksPerUser(),
					settings.bytesPerUser().toBytes()));
		}
		if (settings.linksPerOffice() > 0 || settings.bytesPerOffice().toBytes() > 0) {
			limits.add(new Limit(Scope.OFFICE, caller.office(), settings.linksPerOffice(),
					settings.bytesPerOffice().toBytes()));
		}
		return limits;
	}

	/** A 429 with the seconds until the UTC day ends; it names the quota and its size, never what others stored. */
	private ProblemException refused(Limit limit, Instant now) {
		refusals.get(limit.scope()).increment();
		return QuotaWindow.DAY.refused("link-quota", "This link would pass the " + limit.scope().key + "'s quota of "
				+ limit.describe() + " per day; it frees at midnight (UTC)", now, limit.scope().key, size(limit));
	}

	/** A link larger than a whole day's byte quota is refused in every day: 413, not a 429 to retry. */
	private ProblemException tooLarge(Limit limit, long bytes) {
		refusals.get(limit.scope()).increment();
		return described(new ProblemException(HttpStatus.CONTENT_TOO_LARGE, "link-too-large", "A link of " + bytes
				+ " bytes passes the " + limit.scope().key + "'s quota of " + limit.bytes() + " bytes per day"), limit);
	}

	private static ProblemException described(ProblemException refused, Limit limit) {
		refused.getBody().setProperty("scope", limit.scope().key);
		refused.getBody().setProperty("limit", size(limit));
		return refused;
	}

	private static Map<String, Long> size(Limit limit) {
		Map<String, Long> size = new LinkedHashMap<>();
		size.put("links", limit.links());
		size.put("bytes", limit.bytes());
		return size;
	}

	private static String key(LocalDate day, Limit limit) {
		return day + "/" + limit.scope().key + "/" + limit.subject();
	}

	private static LocalDate day(Instant instant) {
		return QuotaWindow.day(instant);
	}

	private static Date start(LocalDate day) {
		return Date.from(day.atStartOfDay().toInstant(ZoneOffset.UTC));
	}

	/** What {@link #charge} counted: the counters' keys and the link's bytes. */
	record Charge(List<String> keys, long bytes) {
	}

	/** in the order a refusal names them: the caller's own quota first */
	enum Scope {

		USER, OFFICE;

		final String key = name().toLowerCase(Locale.ROOT);
	}

	/** @param links links per day, 0: off; @param bytes bytes per day, 0: off */
	private record Limit(Scope scope, String subject, long links, long bytes) {

		String describe() {
			if (links == 0) {
				return bytes + " bytes";
			}
			return bytes == 0 ? links + " links" : links + " links and " + bytes + " bytes";
		}
	}
}
