package dev.perflab.route.route;

import java.util.List;

/**
 * A dispatched route: its stops and the path the bus drives, in order. A point's {@code seq} is optional: give it on
 * every point (strictly increasing) or on none (the list order is the order).
 */
public record CreateRouteRequest(String name, String bus, List<StopInput> stops, List<PointInput> points) {

	public record StopInput(String name, Double lat, Double lng) {
	}

	public record PointInput(Integer seq, Double lat, Double lng) {
	}
}
