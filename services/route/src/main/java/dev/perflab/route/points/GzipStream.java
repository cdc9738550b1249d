package dev.perflab.route.points;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * gzip at a chosen level: the default level for a cached body (paid once, sent many times), the fastest for a body
 * compressed per response (the cache off), where the deflater would otherwise be the hot spot.
 */
final class GzipStream extends GZIPOutputStream {

	GzipStream(OutputStream out, int level) throws IOException {
		super(out, 16384);
		def.setLevel(level);
	}
}
