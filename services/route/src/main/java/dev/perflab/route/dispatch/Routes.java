package dev.perflab.route.dispatch;

import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.route.RouteProperties;
import dev.perflab.route.dispatch.CreateRouteRequest.PointInput;
import dev.perflab.route.dispatch.CreateRouteRequest.StopInput;

/**
 * Dispatched routes: written in one transaction (a reader never sees half a route), counted against the office's
 * point quota in that transaction, read per office.
 */
@Service
public class Routes {

	private final JdbcClient jdbc;

	private final JdbcTemplate template;

	private final RouteProperties properties;

	private final TransactionTemplate tx;

	private final PointQuota quota;

	private final Clock clock;

	private final Cache<RefKey, Ref> refs;

	Routes(JdbcClient jdbc, JdbcTemplate template, RouteProperties properties, TransactionTemplate tx, PointQuota quota) {
		this.jdbc = jdbc;
		this.template = template;
		this.properties = properties;
		this.tx = tx;
		this.quota = quota;
		this.clock = Clock.systemUTC();
		this.refs = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(properties.refTtl()).build();
	}

	/** The version of one route of this office, the only thing a points read needs before streaming. */
	public record Ref(long id, int version, int pointCount) {
	}

	/** Before the body is read: 429 when the office has no room left today for the smallest route. */
	void admit(String office) {
		quota.beforeBody(office);
	}

	/** A caller's route: refused (429, nothing written) when its points would pass the office's quota of the day. */
	public long create(String office, String user, CreateRouteRequest request) {
		RouteValidation.check(request, properties.maxPoints());
		int points = request.points().size();
		quota.precheck(office, points);
		return tx.execute(status -> {
			long id = write(office, user, request);
			quota.charge(office, points);
			return id;
		});
	}

	/** The seeder's demo routes: an operator's data, not an office's use, so not counted against its quota. */
	public long createUncounted(String office, String user, CreateRouteRequest request) {
		RouteValidation.check(request, properties.maxPoints());
		return tx.execute(status -> write(office, user, request));
	}

	private long write(String office, String user, CreateRouteRequest request) {
		GeneratedKeyHolder key = new GeneratedKeyHolder();
		Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
		template.update(connection -> {
			PreparedStatement insert = connection.prepareStatement(
					"INSERT INTO route (office, name, bus, version, point_count, created_by, created_at) VALUES (?, ?, ?, 1, ?, ?, ?)",
					new String[] { "id" });
			insert.setString(1, office);
			insert.setString(2, request.name());
			insert.setString(3, request.bus());
			insert.setInt(4, request.points().size());
			insert.setString(5, user);
			insert.setTimestamp(6, Timestamp.from(now));
			return insert;
		}, key);
		long id = key.getKey().longValue();
		List<StopInput> stops = request.stops() == null ? List.of() : request.stops();
		List<Integer> order = java.util.stream.IntStream.range(0, stops.size()).boxed().toList();
		template.batchUpdate("INSERT INTO stop (route_id, seq, name, lat, lng) VALUES (?, ?, ?, ?, ?)", order, 100,
				(ps, seq) -> {
					StopInput stop = stops.get(seq);
					ps.setLong(1, id);
					ps.setInt(2, seq);
					ps.setString(3, stop.name());
					ps.setDouble(4, stop.lat());
					ps.setDouble(5, stop.lng());
				});
		insertPoints(id, request.points());
		return id;
	}

	private void insertPoints(long id, List<PointInput> points) {
		int batch = properties.seed().batchSize();
		int[] index = { 0 };
		template.batchUpdate("INSERT INTO route_point (route_id, seq, lat, lng) VALUES (?, ?, ?, ?)", points, batch,
				(ps, point) -> {
					ps.setLong(1, id);
					ps.setInt(2, point.seq() != null ? point.seq() : index[0]);
					ps.setDouble(3, point.lat());
					ps.setDouble(4, point.lng());
					index[0]++;
				});
	}

	/**
	 * The route's current version, remembered for {@code perflab.route.ref-ttl}: 1,000 readers of one route would
	 * otherwise queue for pool connections just to learn a version that does not change (measured: the lookup, not
	 * the body, capped the cached path). A route not found is not remembered, so a new route is seen at once.
	 */
	public Optional<Ref> ref(String office, long id) {
		Ref ref = refs.getIfPresent(new RefKey(office, id));
		if (ref != null) {
			return Optional.of(ref);
		}
		Optional<Ref> found = jdbc.sql("SELECT id, version, point_count FROM route WHERE id = ? AND office = ?")
			.params(id, office)
			.query((rs, n) -> new Ref(rs.getLong(1), rs.getInt(2), rs.getInt(3)))
			.optional();
		found.ifPresent(r -> refs.put(new RefKey(office, id), r));
		return found;
	}

	private record RefKey(String office, long id) {
	}

	Optional<RouteResponse> find(String office, long id) {
		return jdbc.sql("SELECT id, name, bus, version, point_count, created_by, created_at FROM route WHERE id = ? AND office = ?")
			.params(id, office)
			.query((rs, n) -> new RouteResponse(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4),
					rs.getInt(5), List.of(), rs.getString(6), rs.getTimestamp(7).toInstant()))
			.optional()
			.map(route -> new RouteResponse(route.id(), route.name(), route.bus(), route.version(),
					route.pointCount(), stops(id), route.createdBy(), route.createdAt()));
	}

	private List<RouteResponse.Stop> stops(long id) {
		return jdbc.sql("SELECT seq, name, lat, lng FROM stop WHERE route_id = ? ORDER BY seq")
			.param(id)
			.query((rs, n) -> new RouteResponse.Stop(rs.getInt(1), rs.getString(2), rs.getDouble(3), rs.getDouble(4)))
			.list();
	}
}
