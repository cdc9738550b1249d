package dev.perflab.route.dispatch;

import java.time.Instant;
import java.util.List;

/** A route's metadata; its points are read from {@code /v1/routes/{id}/points}. */
record RouteResponse(long id, String name, String bus, int version, int pointCount, List<Stop> stops,
		String createdBy, Instant createdAt) {

	record Stop(int seq, String name, double lat, double lng) {
	}
}
