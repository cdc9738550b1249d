package dev.perflab.route.points;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;

import jakarta.servlet.http.HttpServletResponse;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.perflab.platform.Caller;
import dev.perflab.platform.ProblemException;
import dev.perflab.route.RouteProperties;
import dev.perflab.route.dispatch.Routes;

/**
 * {@code GET /v1/routes/{id}/points}: every point of a route, written as it is read, never collected. Everything
 * that can refuse (the route, the format) is decided before the first byte, so a refusal is always a whole
 * problem+json, never a cut body.
 */
@RestController
class PointsController {

	private static final Logger log = LoggerFactory.getLogger(PointsController.class);

	private final Routes routes;

	private final PointsFetch fetch;

	private final PointBodies bodies;

	private final String cacheControl;

	private final String surrogateControl;

	PointsController(Routes routes, PointsFetch fetch, RouteProperties properties, MeterRegistry registry) {
		this.routes = routes;
		this.fetch = fetch;
		this.bodies = properties.bodyCache().enabled()
				? new PointBodies(properties.bodyCache().maxSize().toBytes(), properties.bodyCache().concurrentFills(),
						properties.bodyCache().fillWait(), fetch, registry)
				: null;
		// a version's points never change; a re-dispatch is a new version (and a new ETag) seen after max-age
		this.cacheControl = "private, max-age=" + properties.maxAge().toSeconds() + ", immutable";
		// for the gateway alone (it keeps the body per office and takes the header off): how long it may answer
		// without asking again
		this.surrogateControl = "max-age=" + properties.edgeMaxAge().toSeconds();
	}

	@GetMapping("/v1/routes/{id}/points")
	@ApiResponse(responseCode = "200", description = "Every point, in order, as the format asked for (gzip when accepted)",
			headers = @Header(name = "ETag", schema = @Schema(type = "string")), content = {
				@Content(mediaType = "application/json", schema = @Schema(type = "array", implementation = Object.class)),
				@Content(mediaType = "application/x-ndjson", schema = @Schema(type = "string")),
				@Content(mediaType = "application/vnd.perflab.polyline", schema = @Schema(type = "string")) })
	@ApiResponse(responseCode = "304", description = "If-None-Match names this version of the points")
	@ApiResponse(responseCode = "406", description = "Neither format nor Accept names json, ndjson or polyline")
	void points(Caller caller, @Parameter(schema = @Schema(type = "integer", format = "int64", minimum = "1", maximum = "9223372036854775807")) @PathVariable long id,
			@Parameter(description = "wins over Accept; any case", schema = @Schema(type = "string",
					allowableValues = { "json", "ndjson", "polyline" })) @RequestParam(required = false) String format,
			@Parameter(description = "the format, when format is not given", schema = @Schema(type = "string",
					allowableValues = { "application/json", "application/x-ndjson", "application/vnd.perflab.polyline",
						"*/*" })) @RequestHeader(name = HttpHeaders.ACCEPT, required = false) String accept,
			@RequestHeader(name = HttpHeaders.ACCEPT_ENCODING, required = false) String acceptEncoding,
			@RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
			HttpServletResponse response) throws IOException {
		Routes.Ref route = routes.ref(caller.office(), id)
			.orElseThrow(() -> ProblemException.notFound("No route " + id));
		Format chosen = Format.negotiate(format, accept)
			.orElseThrow(() -> new ProblemException(HttpStatus.NOT_ACCEPTABLE, "not-acceptable",
					"Points are written as application/json, application/x-ndjson or application/vnd.perflab.polyline"
							+ " (or ?format=json|ndjson|polyline)"));
		boolean gzip = acceptsGzip(acceptEncoding);
		String etag = "\"" + route.id() + "-" + route.version() + "-" + chosen.name + (gzip ? "-gz" : "") + "\"";
		response.setHeader(HttpHeaders.ETAG, etag);
		response.setHeader(HttpHeaders.CACHE_CONTROL, cacheControl);
		response.setHeader(HttpHeaders.VARY, "Accept, Accept-Encoding");
		response.setHeader("Surrogate-Control", surrogateControl);
		if (matches(ifNoneMatch, etag)) {
			response.setStatus(HttpStatus.NOT_MODIFIED.value());
			return;
		}
		response.setContentType(chosen.mediaType.toString());
		try {
			if (bodies != null) {
				cached(route, chosen, gzip, response);
			}
			else {
				streamed(route, chosen, gzip, response);
			}
		}
		catch (IOException e) {
			// the client went away mid-body: nothing to answer, and the read was already stopped
			log.debug("points of route {} cut by the client: {}", id, e.getMessage());
		}
		catch (RuntimeException e) {
			if (!response.isCommitted()) {
				// refused before the first byte (no connection, no turn to be read): the problem that answers instead
				// must not carry the body's validators and freshness, or a cache would keep a 503 for an hour
				response.setHeader(HttpHeaders.ETAG, null);
				response.setHeader(HttpHeaders.CACHE_CONTROL, null);
				response.setHeader("Surrogate-Control", null);
			}
			throw e;
		}
	}

	private void cached(Routes.Ref route, Format format, boolean gzip, HttpServletResponse response)
			throws IOException {
		byte[] body = bodies.gzipped(route, format);
		if (gzip) {
			response.setHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
			response.setContentLength(body.length);
			response.getOutputStream().write(body);
			return;
		}
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body), 16384)) {
			in.transferTo(response.getOutputStream());
		}
	}

	private void streamed(Routes.Ref route, Format format, boolean gzip, HttpServletResponse response)
			throws IOException {
		OutputStream out = response.getOutputStream();
		GzipStream compressed = null;
		if (gzip) {
			response.setHeader(HttpHeaders.CONTENT_ENCODING, "gzip");
			out = compressed = new GzipStream(out, Deflater.BEST_SPEED);
		}
		PointSink sink = format.sink(out);
		fetch.points(route.id(), sink);
		sink.finish();
		if (compressed != null) {
			compressed.finish();
		}
	}

	static boolean acceptsGzip(String acceptEncoding) {
		if (acceptEncoding == null) {
			return false;
		}
		for (String coding : acceptEncoding.split(",")) {
			String[] parts = coding.split(";");
			String name = parts[0].trim().toLowerCase(Locale.ROOT);
			if (name.equals("gzip") || name.equals("x-gzip")) {
				for (int i = 1; i < parts.length; i++) {
					String parameter = parts[i].trim().replace(" ", "");
					if (parameter.startsWith("q=") && weight(parameter.substring(2)) == 0) {
						return false;
					}
				}
				return true;
			}
		}
		return false;
	}

	/** A q-value; one that is no number ({@code q=1.2.3}) counts as 0, as a letter in it already did. */
	private static double weight(String q) {
		try {
			return Double.parseDouble("0" + q.replaceAll("[^0-9.]", ""));
		}
		catch (NumberFormatException e) {
			return 0;
		}
	}

	// If-None-Match compares weakly (RFC 9110 13.1.2): W/"x" matches "x"
	static boolean matches(String ifNoneMatch, String etag) {
		if (ifNoneMatch == null) {
			return false;
		}
		for (String tag : ifNoneMatch.split(",")) {
			String candidate = tag.trim();
			if (candidate.equals("*") || candidate.replaceFirst("^W/", "").equals(etag)) {
				return true;
			}
		}
		return false;
	}
}
