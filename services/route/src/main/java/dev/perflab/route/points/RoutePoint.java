package dev.perflab.route.points;

import java.io.Serializable;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** The JPA mapping of route_point, used only by the lab baseline's interface projection. */
@Entity
@Table(name = "route_point")
@IdClass(RoutePoint.Key.class)
class RoutePoint {

	@Id
	long routeId;

	@Id
	int seq;

	double lat;

	double lng;

	record Key(long routeId, int seq) implements Serializable {
	}
}
