package dev.perflab.route.seed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import dev.perflab.route.dispatch.CreateRouteRequest;
import dev.perflab.route.dispatch.CreateRouteRequest.PointInput;
import dev.perflab.route.dispatch.CreateRouteRequest.StopInput;

/** Route n of the demo data, the same on every machine (fixed seed per route). */
final class SeedRoutes {

	private SeedRoutes() {
	}

	static CreateRouteRequest route(int n, int minPoints, int maxPoints) {
		SplittableRandom random = new SplittableRandom(20_000L + n);
		int count = minPoints + (maxPoints > minPoints ? random.nextInt(maxPoints - minPoints + 1) : 0);
		// a bus wandering through Seoul: ~5 m steps with a slowly turning heading
		double lat = 37.45 + random.nextDouble() * 0.2, lng = 126.85 + random.nextDouble() * 0.3;
		double heading = random.nextDouble() * 2 * Math.PI;
		List<PointInput> points = new ArrayList<>(count);
		List<StopInput> stops = new ArrayList<>();
		int stopEvery = Math.max(1, count / 15);
		for (int i = 0; i < count; i++) {
			heading += (random.nextDouble() - 0.5) * 0.3;
			lat += Math.cos(heading) * 0.00005;
			lng += Math.sin(heading) * 0.00006;
			double pointLat = Math.round(lat * 1e7) / 1e7, pointLng = Math.round(lng * 1e7) / 1e7;
			points.add(new PointInput(null, pointLat, pointLng));
			if (i % stopEvery == 0 && stops.size() < 15) {
				stops.add(new StopInput("stop " + n + "-" + (stops.size() + 1), pointLat, pointLng));
			}
		}
		return new CreateRouteRequest("seed route " + n, "bus-" + (n % 40 + 1), stops, points);
	}
}
