package dev.perflab.route.points;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Google's encoded polyline algorithm, precision 1e-5 (about 1 m): each coordinate is the zig-zag encoded delta to
 * the previous point in 5-bit groups, as ASCII 63..126. A 20k-point route is about 120 KB instead of about 900 KB of
 * JSON. The sequence numbers are not part of it: the order is the order.
 */
final class PolylineSink implements PointSink {

	private final OutputStream out;

	private final byte[] buffer = new byte[8192];

	private int length;

	private long lastLat;

	private long lastLng;

	PolylineSink(OutputStream out) {
		this.out = out;
	}

	@Override
	public void point(int seq, double lat, double lng) throws IOException {
		if (length > buffer.length - 24) {
			drain();
		}
		long la = Math.round(lat * 1e5);
		long ln = Math.round(lng * 1e5);
		encode(la - lastLat);
		encode(ln - lastLng);
		lastLat = la;
		lastLng = ln;
	}

	private void encode(long delta) {
		long value = delta < 0 ? ~(delta << 1) : delta << 1;
		while (value >= 0x20) {
			buffer[length++] = (byte) ((0x20 | (value & 0x1f)) + 63);
			value >>= 5;
		}
		buffer[length++] = (byte) (value + 63);
	}

	private void drain() throws IOException {
		out.write(buffer, 0, length);
		length = 0;
	}

	@Override
	public void finish() throws IOException {
		drain();
		out.flush();
	}
}
