package dev.perflab.load.prometheus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import com.google.protobuf.CodedOutputStream;

/**
 * A Prometheus remote-write request (prompb.WriteRequest, protocol 0.1.0) encoded by hand: time series of samples
 * (counters) and of native histograms, their labels sorted by name with {@code __name__} among them.
 */
final class WriteRequest {

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	/** Adds a series with one sample. {@code labels} sorted by name, {@code __name__} included. */
	void sample(SortedMap<String, String> labels, double value, long timestamp) {
		series(labels, (ts) -> message(ts, 2, (s) -> {
			s.writeDouble(1, value);
			s.writeInt64(2, timestamp);
		}));
	}

	/** Adds a series with one native histogram (integer counts, deltas between neighbouring buckets). */
	void histogram(SortedMap<String, String> labels, NativeHistogram.Snapshot h, long timestamp) {
		series(labels, (ts) -> message(ts, 4, (m) -> {
			m.writeUInt64(1, h.count());
			m.writeDouble(3, h.sum());
			m.writeSInt32(4, NativeHistogram.SCHEMA);
			m.writeDouble(5, NativeHistogram.ZERO_THRESHOLD);
			m.writeUInt64(6, h.zeroCount());
			List<int[]> spans = new ArrayList<>();
			List<Long> deltas = new ArrayList<>();
			Integer previous = null;
			long previousCount = 0;
			for (Map.Entry<Integer, Long> b : h.buckets().entrySet()) {
				if (previous == null || b.getKey() != previous + 1) {
					spans.add(new int[] { previous == null ? b.getKey() : b.getKey() - previous - 1, 0 });
				}
				spans.get(spans.size() - 1)[1]++;
				deltas.add(b.getValue() - previousCount);
				previousCount = b.getValue();
				previous = b.getKey();
			}
			for (int[] span : spans) {
				message(m, 11, (s) -> {
					s.writeSInt32(1, span[0]);
					s.writeUInt32(2, span[1]);
				});
			}
			if (!deltas.isEmpty()) {
				int size = deltas.stream().mapToInt(CodedOutputStream::computeSInt64SizeNoTag).sum();
				m.writeTag(12, 2);
				m.writeUInt32NoTag(size);
				for (long d : deltas) {
					m.writeSInt64NoTag(d);
				}
			}
			m.writeInt64(15, timestamp);
		}));
	}

	byte[] bytes() {
		return this.out.toByteArray();
	}

	private void series(SortedMap<String, String> labels, Writer values) {
		try {
			CodedOutputStream root = CodedOutputStream.newInstance(this.out);
			message(root, 1, (ts) -> {
				for (Map.Entry<String, String> label : labels.entrySet()) {
					message(ts, 1, (l) -> {
						l.writeString(1, label.getKey());
						l.writeString(2, label.getValue());
					});
				}
				values.write(ts);
			});
			root.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void message(CodedOutputStream parent, int field, Writer body) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		CodedOutputStream inner = CodedOutputStream.newInstance(bytes);
		body.write(inner);
		inner.flush();
		parent.writeByteArray(field, bytes.toByteArray());
	}

	@FunctionalInterface
	private interface Writer {

		void write(CodedOutputStream out) throws IOException;

	}

}
