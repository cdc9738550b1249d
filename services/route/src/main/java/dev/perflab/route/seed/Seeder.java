package dev.perflab.route.seed;


import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.perflab.route.RouteProperties;
import dev.perflab.route.dispatch.Routes;

/**
 * Deterministic demo routes: route n (from 1) always has the same stops and points (a random walk around Seoul
 * seeded by n), between {@code min-points} and {@code max-points} of them, written through
 * {@link Routes#createUncounted} (one transaction and batched inserts per route; an operator's demo data is no office's
 * point quota). Routes already seeded are kept, so a rerun only adds the missing
 * ones.
 */
@Component
public class Seeder {

	private static final Logger log = LoggerFactory.getLogger(Seeder.class);

	static final String SEEDER = "seed";

	private final Routes routes;

	private final JdbcClient jdbc;

	private final RouteProperties.Seed settings;

	Seeder(Routes routes, JdbcClient jdbc, RouteProperties properties) {
		this.routes = routes;
		this.jdbc = jdbc;
		this.settings = properties.seed();
	}

	public int seeded() {
		return jdbc.sql("SELECT COUNT(*) FROM route WHERE created_by = ? AND office = ?")
			.params(SEEDER, settings.office())
			.query(Integer.class)
			.single();
	}

	public void seed(int count) {
		int have = seeded();
		if (have >= count) {
			log.info("{} seeded routes present in office {}, nothing to add", have, settings.office());
			return;
		}
		long started = System.nanoTime();
		long points = 0;
		for (int n = have + 1; n <= count; n++) {
			long one = System.nanoTime();
			var request = SeedRoutes.route(n, settings.minPoints(), settings.maxPoints());
			long id = routes.createUncounted(settings.office(), SEEDER, request);
			points += request.points().size();
			log.info("route {}/{}: id {}, {} points in {} ms", n, count, id, request.points().size(),
					(System.nanoTime() - one) / 1_000_000);
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		log.info("seeded {} routes ({} points) in {} s, {} points/s", count - have, points,
				String.format("%.1f", seconds), Math.round(points / seconds));
	}
}
