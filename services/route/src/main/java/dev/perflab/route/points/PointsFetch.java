package dev.perflab.route.points;

import java.io.IOException;

/**
 * The lab switch {@code perflab.route.points-fetch}: how one route's points are read from MySQL and handed to a
 * {@link PointSink}. Both answer the same bytes; they differ in memory, time and how long a connection is held.
 */
interface PointsFetch {

	/** Hands every point of the route to the sink in seq order; an IOException from the sink stops the read. */
	void points(long routeId, PointSink sink) throws IOException;
}
