package dev.perflab.route.points;

import java.io.IOException;
import java.util.List;

import org.springframework.transaction.support.TransactionTemplate;

/**
 * Seed 002's start (the baseline, {@code perflab.route.points-fetch=interface-projection}): a Spring Data JPA query
 * returning a List of interface projections. The driver buffers the whole result, Hibernate builds a tuple per row
 * and Spring Data a proxy over it, so 20k points are some 100k short-lived objects per request; 1,000 readers at
 * once filled Eden faster than G1 could collect it and the pauses queued every request behind them (27 s, 88% time
 * outs). The list is then serialized at once.
 */
final class InterfaceProjectionFetch implements PointsFetch {

	private final RoutePointRepository repository;

	private final TransactionTemplate readOnly;

	InterfaceProjectionFetch(RoutePointRepository repository, TransactionTemplate readOnly) {
		this.repository = repository;
		this.readOnly = readOnly;
	}

	@Override
	public void points(long routeId, PointSink sink) throws IOException {
		List<RoutePointRepository.PointView> points = readOnly.execute(status -> repository.findPoints(routeId));
		for (RoutePointRepository.PointView point : points) {
			sink.point(point.getSeq(), point.getLat(), point.getLng());
		}
	}
}
