package dev.perflab.route.points;

import java.util.List;

import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;

interface RoutePointRepository extends Repository<RoutePoint, RoutePoint.Key> {

	/** Seed 002's query: every point as an interface projection, one proxy (over a tuple map) per row. */
	@Query("SELECT p.seq AS seq, p.lat AS lat, p.lng AS lng FROM RoutePoint p WHERE p.routeId = :routeId ORDER BY p.seq")
	List<PointView> findPoints(long routeId);

	interface PointView {

		int getSeq();

		double getLat();

		double getLng();
	}
}
