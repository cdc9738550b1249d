package dev.perflab.route.points;

import java.io.IOException;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/** Jackson's streaming generator: a JSON array, or one object per line (NDJSON). */
final class JsonPointSink implements PointSink {

	private static final SerializableString SEQ = new SerializedString("seq");

	private static final SerializableString LAT = new SerializedString("lat");

	private static final SerializableString LNG = new SerializedString("lng");

	private final JsonGenerator json;

	private final char[] number = new char[24];

	private final boolean lines;

	JsonPointSink(JsonGenerator json, boolean lines) throws IOException {
		this.json = json;
		this.lines = lines;
		if (!lines) {
			call(json::writeStartArray);
		}
	}

	@Override
	public void point(int seq, double lat, double lng) throws IOException {
		try {
			json.writeStartObject();
			json.writeName(SEQ);
			json.writeNumber(seq);
			coordinate(LAT, lat);
			coordinate(LNG, lng);
			json.writeEndObject();
			if (lines) {
				json.writeRaw('\n');
			}
		}
		catch (JacksonException e) {
			throw io(e);
		}
	}

	private void coordinate(SerializableString name, double value) {
		json.writeName(name);
		int length = Coordinates.fixed7(value, number);
		if (length > 0) {
			json.writeNumber(number, 0, length);
		}
		else {
			json.writeNumber(value);
		}
	}

	@Override
	public void finish() throws IOException {
		if (!lines) {
			call(json::writeEndArray);
		}
		call(json::close);
	}

	private static void call(Runnable write) throws IOException {
		try {
			write.run();
		}
		catch (JacksonException e) {
			throw io(e);
		}
	}

	// Jackson 3 wraps the stream's IOException (a client that went away) in an unchecked exception
	private static IOException io(JacksonException e) {
		return e.getCause() instanceof IOException io ? io : new IOException(e);
	}
}
