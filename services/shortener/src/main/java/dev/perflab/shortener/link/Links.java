package dev.perflab.shortener.link;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;
import dev.perflab.shortener.ShortenerProperties;
import dev.perflab.shortener.id.Base62;
import dev.perflab.shortener.id.Codes;
import dev.perflab.shortener.id.IdGenerator;
import dev.perflab.shortener.link.RedirectCache.Target;

/** Creating, resolving, describing and deleting short links. */
@Service
class Links {

	private static final Duration MAX_LIFETIME = Duration.ofDays(3650);

	private final IdGenerator ids;

	private final Codes codes;

	private final LinkStore store;

	private final RedirectCache cache;

	private final HitCounter hits;

	private final EdgeInvalidations edge;

	private final LinkQuota quota;

	private final ShortenerProperties properties;

	private final Clock clock;

	Links(IdGenerator ids, Codes codes, LinkStore store, RedirectCache cache, HitCounter hits,
			EdgeInvalidations edge, LinkQuota quota, ShortenerProperties properties) {
		this.ids = ids;
		this.codes = codes;
		this.store = store;
		this.cache = cache;
		this.hits = hits;
		this.edge = edge;
		this.quota = quota;
		this.properties = properties;
		this.clock = Clock.systemUTC();
	}

	LinkResponse create(Caller caller, CreateLinkRequest request) {
		String url = UrlPolicy.check(request.url());
		Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
		Instant expiresAt = request.expiresAt() == null ? null : request.expiresAt().truncatedTo(ChronoUnit.MILLIS);
		if (expiresAt != null && (!expiresAt.isAfter(now.plusSeconds(1)) || expiresAt.isAfter(now.plus(MAX_LIFETIME)))) {
			throw ProblemException.badRequest("invalid-expiry",
					"expiresAt must be at least one second and at most ten years in the future");
		}
		boolean permanent = Boolean.TRUE.equals(request.permanent());
		// counted before the link is written, so a refused create writes nothing; a link not written is given back
		LinkQuota.Charge charge = quota.charge(caller, url);
		Link link;
		try {
			link = insert(url, permanent, caller, now, expiresAt);
		}
		catch (RuntimeException e) {
			refund(charge, e);
			throw e;
		}
		// write-through: a code probed before it existed must not stay negatively cached once created
		cache.put(link.code(), Target.of(link), now);
		return describe(link, null);
	}

	private Link insert(String url, boolean permanent, Caller caller, Instant now, Instant expiresAt) {
		for (int attempt = 1;; attempt++) {
			long id = ids.nextId();
			Link link = new Link(id, codes.of(id), url, permanent, caller.user(), caller.office(), now, expiresAt, 0);
			try {
				store.insert(link);
				return link;
			}
			catch (DuplicateKeyException e) {
				// only when the id strategy was switched over existing data, or a new code key met a code made with
				// another: a fresh id resolves it
				if (attempt == 3) {
					throw e;
				}
			}
		}
	}

	private void refund(LinkQuota.Charge charge, RuntimeException cause) {
		try {
			quota.refund(charge);
		}
		catch (RuntimeException e) {
			// the store that failed the insert may fail this too: the link stays counted, never a link uncounted
			cause.addSuppressed(e);
		}
	}

	/** Where a code points, counting the hit; a 404 problem for unknown and expired codes. */
	Target resolve(String code) {
		if (!Base62.isCode(code)) {
			throw unknown(code);
		}
		Instant now = clock.instant();
		Target target = cache.get(code);
		if (target == null) {
			Link link = store.find(code);
			if (link == null || link.expiredAt(now)) {
				cache.putMissing(code);
				throw unknown(code);
			}
			target = Target.of(link);
			cache.put(code, target, now);
		}
		if (target == Target.MISSING || (target.expiresAt() != null && !now.isBefore(target.expiresAt()))) {
			throw unknown(code);
		}
		hits.hit(code);
		return target;
	}

	/** Seconds a gateway may answer this redirect itself: never past the link's expiry (1 s of margin). */
	long edgeMaxAge(Target target) {
		long maxAge = properties.edge().maxAge().toSeconds();
		if (target.expiresAt() != null) {
			long left = Duration.between(clock.instant(), target.expiresAt()).toSeconds() - 1;
			maxAge = Math.min(maxAge, left);
		}
		return Math.max(0, maxAge);
	}

	LinkResponse describe(Caller caller, String code) {
		Link link = Base62.isCode(code) ? store.find(code) : null;
		// a link belongs to a user of an office: the same login in another office is someone else
		if (link == null || !link.owner().equals(caller.user()) || !link.office().equals(caller.office())) {
			throw unknown(code);
		}
		return describe(link, link.hits() + hits.pending(code));
	}

	void delete(Caller caller, String code) throws InterruptedException {
		if (!Base62.isCode(code) || !store.delete(code, caller.user(), caller.office())) {
			throw unknown(code);
		}
		cache.putMissing(code);
		edge.invalidate(code);
	}

	private LinkResponse describe(Link link, Long hitCount) {
		return new LinkResponse(link.code(), properties.publicBaseUrl() + "/s/" + link.code(), link.url(),
				link.permanent(), link.createdAt(), link.expiresAt(), hitCount);
	}

	private static ProblemException unknown(String code) {
		return ProblemException.notFound("No short link " + (Base62.isCode(code) ? code : "with that code"));
	}
}
