package dev.perflab.route.points;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;

/** The encodings of a route's points: one negotiated per request, each streamed point by point. */
enum Format {

	/** {@code [{"seq":0,"lat":..,"lng":..},...]} */
	JSON("json", MediaType.APPLICATION_JSON),
	/** one {@code {"seq":0,"lat":..,"lng":..}} per line */
	NDJSON("ndjson", MediaType.APPLICATION_NDJSON),
	/** Google's encoded polyline (1e-5 degrees): about 6 bytes a point instead of about 45 */
	POLYLINE("polyline", MediaType.parseMediaType("application/vnd.perflab.polyline"));

	// the sink ends the document and closes the generator; the response stream stays the caller's to close
	static final JsonFactory JSON_FACTORY = JsonFactory.builder().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

	final String name;

	final MediaType mediaType;

	Format(String name, MediaType mediaType) {
		this.name = name;
		this.mediaType = mediaType;
	}

	PointSink sink(OutputStream out) throws IOException {
		return switch (this) {
			case JSON -> new JsonPointSink(JSON_FACTORY.createGenerator(out), false);
			case NDJSON -> new JsonPointSink(JSON_FACTORY.createGenerator(out), true);
			case POLYLINE -> new PolylineSink(out);
		};
	}

	/**
	 * The format a request asks for: {@code ?format=} wins, else the most preferred acceptable media type (JSON for
	 * none or a wildcard); empty when nothing this service writes is acceptable (406).
	 */
	static Optional<Format> negotiate(String format, String accept) {
		if (format != null) {
			for (Format f : values()) {
				if (f.name.equals(format.toLowerCase(Locale.ROOT))) {
					return Optional.of(f);
				}
			}
			return Optional.empty();
		}
		if (accept == null || accept.isBlank()) {
			return Optional.of(JSON);
		}
		List<MediaType> accepted;
		try {
			accepted = MediaType.parseMediaTypes(accept).stream()
				.filter(type -> type.getQualityValue() > 0)
				.sorted(Comparator.comparingDouble(MediaType::getQualityValue).reversed())
				.toList();
		}
		catch (InvalidMediaTypeException e) {
			return Optional.empty();
		}
		for (MediaType type : accepted) {
			for (Format f : values()) {
				if (type.includes(f.mediaType)) {
					return Optional.of(f);
				}
			}
		}
		return Optional.empty();
	}
}
