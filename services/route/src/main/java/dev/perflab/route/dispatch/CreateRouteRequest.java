package dev.perflab.route.dispatch;

import java.util.List;

import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;

import static io.swagger.v3.oas.annotations.media.Schema.RequiredMode.REQUIRED;

/**
 * A dispatched route: its stops and the path the bus drives, in order. A point's {@code seq} is optional: give it on
 * every point (strictly increasing) or on none (the list order is the order).
 */
public record CreateRouteRequest(
		@Schema(requiredMode = REQUIRED, maxLength = 200, pattern = "\\S", description = "not blank") String name,
		@Schema(maxLength = 64, description = "blank is none") String bus,
		@ArraySchema(maxItems = RouteValidation.MAX_STOPS) List<StopInput> stops,
		@ArraySchema(minItems = RouteValidation.MIN_POINTS, maxItems = 50_000, arraySchema = @Schema(requiredMode = REQUIRED,
				description = "at most perflab.route.max-points (50,000); seq on every point, strictly increasing, or on none"))
		List<PointInput> points) {

	public record StopInput(
			@Schema(requiredMode = REQUIRED, maxLength = 200, pattern = "\\S", description = "not blank") String name,
			@Schema(requiredMode = REQUIRED, minimum = "-90", maximum = "90") Double lat,
			@Schema(requiredMode = REQUIRED, minimum = "-180", maximum = "180") Double lng) {
	}

	public record PointInput(@Schema(types = { "integer", "null" }, minimum = "0", description = "null: as if not given") Integer seq,
			@Schema(requiredMode = REQUIRED, minimum = "-90", maximum = "90") Double lat,
			@Schema(requiredMode = REQUIRED, minimum = "-180", maximum = "180") Double lng) {
	}
}
