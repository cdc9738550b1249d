package dev.perflab.route.points;

import java.io.IOException;

/** Where the points of one route go, one at a time and in order; nothing is collected on the way. */
interface PointSink {

	void point(int seq, double lat, double lng) throws IOException;

	/** Ends the body (the closing bracket) and flushes; the stream underneath stays open. */
	void finish() throws IOException;
}
