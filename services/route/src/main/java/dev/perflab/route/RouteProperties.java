package dev.perflab.route;

import java.time.Duration;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import dev.perflab.platform.LabSwitches;

/**
 * @param pointsFetch lab switch: {@code jdbc-stream} (fixed: a forward-only streaming ResultSet written straight to
 * the response) or {@code interface-projection} (seed 002's start: a List of Spring Data interface projections,
 * serialized at once)
 * @param maxPoints the most points one route may have
 * @param fetchSize rows per round trip of the streaming read ({@code Integer.MIN_VALUE}: MySQL Connector/J's
 * row-by-row streaming, the only streaming it offers without a server-side cursor)
 * @param bodyCache the encoded, gzipped points body kept per route version
 * @param maxAge how long a client may keep a points body without asking again (a re-dispatch shows after this)
 * @param edgeMaxAge how long the gateway may answer a points read of the same office from the body it kept, without
 * asking route ({@code Surrogate-Control: max-age}; a re-dispatch shows at the gateway after at most this; 0: every
 * read reaches route, which answers 304 while the version holds)
 * @param refTtl how long a route's version is remembered between points reads (a re-dispatch shows after this)
 * @param quota route points an office may store per UTC day
 * @param seed the demo data {@code java -jar route.jar --perflab.route.seed.routes=N} writes
 */
@ConfigurationProperties("perflab.route")
public record RouteProperties(@DefaultValue("jdbc-stream") PointsFetch pointsFetch,
		@DefaultValue("50000") int maxPoints, @DefaultValue("-2147483648") int fetchSize,
		@DefaultValue BodyCache bodyCache, @DefaultValue("1h") Duration maxAge, @DefaultValue("5s") Duration edgeMaxAge,
		@DefaultValue("5s") Duration refTtl, @DefaultValue Quota quota,
		@DefaultValue Seed seed) implements LabSwitches {

	@Override
	public Map<String, ?> labSwitches() {
		return Map.of("points-fetch", pointsFetch);
	}


	public enum PointsFetch {

		JDBC_STREAM, INTERFACE_PROJECTION

	}

	/**
	 * @param maxSize the cache's bound, counted in body bytes; 0 turns it off (every read streams from MySQL)
	 * @param fills bodies read and encoded at once (CPU work holding a pool connection); 0: one per processor the
	 * JVM sees (its container's CPU limit)
	 * @param fillWait how long a body not kept yet waits for its turn to be read before the read is refused (503)
	 */
	public record BodyCache(@DefaultValue("64MB") DataSize maxSize, @DefaultValue("0") int fills,
			@DefaultValue("10s") Duration fillWait) {

		public boolean enabled() {
			return maxSize.toBytes() > 0;
		}

		public int concurrentFills() {
			return fills > 0 ? fills : Runtime.getRuntime().availableProcessors();
		}
	}

	/**
	 * Points an office may store through {@code POST /v1/routes} per UTC day; 0 turns it off. A create may carry 50,000
	 * points (~50 bytes each in InnoDB) and nothing bounded how often: one caller could fill the database at ~2.5 MB a
	 * request. 5,000,000 is 250 of seed 002's 20,000-point routes a day (~250 MB); the whole {@code make test} creates
	 * ~85,000. The seeder's demo routes are an operator's, not an office's, and are not counted.
	 *
	 * @param pointsPerOffice points per office per UTC day
	 * @param retention how long a day's counters are kept after it (for an operator) before they are deleted
	 */
	public record Quota(@DefaultValue("5000000") long pointsPerOffice, @DefaultValue("1d") Duration retention) {

		public Quota {
			if (pointsPerOffice < 0) {
				throw new IllegalArgumentException("perflab.route.quota.points-per-office is points per day, 0 for none");
			}
		}
	}

	/**
	 * @param routes routes to write (0: seed nothing)
	 * @param minPoints fewest points of a seeded route
	 * @param maxPoints most points of a seeded route
	 * @param office the office that owns the seeded routes
	 * @param batchSize rows per batched insert
	 */
	public record Seed(@DefaultValue("0") int routes, @DefaultValue("15000") int minPoints,
			@DefaultValue("20000") int maxPoints, @DefaultValue("1") String office,
			@DefaultValue("2000") int batchSize) {
	}
}
