package dev.perflab.route.points;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * gzip at a chosen level: level 5 for a kept body (paid once, sent many times; {@link PointBodies#CACHED_LEVEL}), the
 * fastest for a body compressed per response (the cache off), where the deflater would otherwise be the hot spot.
 */
final class GzipStream extends GZIPOutputStream {

	GzipStream(OutputStream out, int level) throws IOException {
		super(out, 16384);
		def.setLevel(level);
	}
}
