package dev.perflab.load.route;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.perflab.load.lib.Callers;
import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Scenario;
import dev.perflab.load.lib.Setup;
import dev.perflab.load.lib.SetupFailed;

import us.abstracta.jmeter.javadsl.http.DslHttpSampler;

import static us.abstracta.jmeter.javadsl.JmeterDsl.httpSampler;

/**
 * The route service's steps: a route created for the run (setup) and its points read as the iteration's caller, in
 * the encoding the iteration asks for.
 */
public final class Routes {

	/** The encodings a reader asks for, one per iteration in turn. */
	public static final List<String> ACCEPTS = List.of("application/json", "application/x-ndjson",
			"application/vnd.perflab.polyline");

	private static final ObjectMapper JSON = new ObjectMapper();

	private Routes() {
	}

	/** Creates a route of {@code points} points for the run and answers its id. */
	public static long create(Scenario.Context context, int points, String name) {
		Setup.Reply created = context.setup().post("/v1/routes", body(points, name),
				Callers.setupIdentityOrBearer(context.settings()));
		if (created.status() != 201) {
			throw new SetupFailed("creating a route answered " + created.status() + ": " + created.body());
		}
		return created.json("id").asLong();
	}

	/** The encoding iteration {@code number} asks for. */
	public static String accept(long number) {
		return ACCEPTS.get((int) (number % ACCEPTS.size()));
	}

	/** GET /v1/routes/{id}/points in the iteration's encoding, gzip accepted. */
	public static DslHttpSampler points(Scenario.Context context, String name, long route) {
		return Callers.identityOrBearer(context.settings(),
				httpSampler(name, context.baseUrl() + "/v1/routes/" + route + "/points")
					.header("Accept", (s) -> accept(Numbers.iteration(s.vars)))
					.header("Accept-Encoding", "gzip"));
	}

	/** A deterministic bus path of n points (a few metres a step around Seoul), as POST /v1/routes takes it. */
	static String body(int n, String name) {
		double lat = 37.5;
		double lng = 127.0;
		double heading = 0.3;
		double[][] points = new double[n][];
		for (int i = 0; i < n; i++) {
			heading += Math.sin(i * 0.37) * 0.1;
			lat += Math.cos(heading) * 0.00005;
			lng += Math.sin(heading) * 0.00006;
			points[i] = new double[] { Math.round(lat * 1e7) / 1e7, Math.round(lng * 1e7) / 1e7 };
		}
		List<Map<String, Object>> path = Arrays.stream(points)
			.map((p) -> Map.<String, Object>of("lat", p[0], "lng", p[1]))
			.toList();
		try {
			return JSON.writeValueAsString(Map.of("name", name, "bus", "bus-jmeter", "stops",
					List.of(Map.of("name", "first", "lat", points[0][0], "lng", points[0][1]),
							Map.of("name", "last", "lat", points[n - 1][0], "lng", points[n - 1][1])),
					"points", path));
		}
		catch (JsonProcessingException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
