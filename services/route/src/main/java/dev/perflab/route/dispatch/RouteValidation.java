package dev.perflab.route.dispatch;

import java.util.List;

import dev.perflab.platform.ProblemException;
import dev.perflab.route.dispatch.CreateRouteRequest.PointInput;
import dev.perflab.route.dispatch.CreateRouteRequest.StopInput;

/** Refuses a route before anything is written: nothing half-checked ever reaches the database. */
final class RouteValidation {

	static final int MAX_STOPS = 100;

	/** the fewest points a route has */
	static final int MIN_POINTS = 2;

	private RouteValidation() {
	}

	static void check(CreateRouteRequest request, int maxPoints) {
		text("name", request.name(), 200, true);
		text("bus", request.bus(), 64, false);
		List<StopInput> stops = request.stops() == null ? List.of() : request.stops();
		if (stops.size() > MAX_STOPS) {
			throw ProblemException.badRequest("too-many-stops", "A route has at most " + MAX_STOPS + " stops");
		}
		for (int i = 0; i < stops.size(); i++) {
			StopInput stop = stops.get(i);
			if (stop == null) {
				throw invalid("stops[" + i + "] is null");
			}
			text("stops[" + i + "].name", stop.name(), 200, true);
			coordinates("stops[" + i + "]", stop.lat(), stop.lng());
		}
		List<PointInput> points = request.points();
		if (points == null || points.size() < MIN_POINTS) {
			throw invalid("A route needs at least " + MIN_POINTS + " points");
		}
		if (points.size() > maxPoints) {
			throw ProblemException.badRequest("too-many-points",
					"A route has at most " + maxPoints + " points; this one has " + points.size());
		}
		boolean numbered = points.getFirst() != null && points.getFirst().seq() != null;
		long previous = Long.MIN_VALUE;
		for (int i = 0; i < points.size(); i++) {
			PointInput point = points.get(i);
			if (point == null) {
				throw invalid("points[" + i + "] is null");
			}
			coordinates("points[" + i + "]", point.lat(), point.lng());
			if ((point.seq() != null) != numbered) {
				throw ProblemException.badRequest("unordered-points",
						"Give seq on every point or on none (points[" + i + "])");
			}
			if (numbered) {
				if (point.seq() < 0 || point.seq() <= previous) {
					throw ProblemException.badRequest("unordered-points",
							"points[" + i + "].seq must be >= 0 and greater than the previous point's");
				}
				previous = point.seq();
			}
		}
	}

	private static void coordinates(String field, Double lat, Double lng) {
		if (lat == null || lng == null || !Double.isFinite(lat) || !Double.isFinite(lng) || lat < -90 || lat > 90
				|| lng < -180 || lng > 180) {
			throw ProblemException.badRequest("invalid-coordinates",
					field + " needs lat in [-90, 90] and lng in [-180, 180]");
		}
	}

	private static void text(String field, String value, int max, boolean required) {
		if (value == null || value.isBlank()) {
			if (required) {
				throw invalid(field + " is required");
			}
			return;
		}
		if (value.length() > max) {
			throw invalid(field + " is longer than " + max + " characters");
		}
	}

	private static ProblemException invalid(String detail) {
		return ProblemException.badRequest("invalid-route", detail);
	}
}
