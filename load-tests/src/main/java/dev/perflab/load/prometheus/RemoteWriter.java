package dev.perflab.load.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.xerial.snappy.Snappy;

/**
 * POSTs remote-write requests to Prometheus as its receiver takes them: protobuf, snappy's block format, protocol
 * 0.1.0.
 */
final class RemoteWriter {

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final URI url;

	RemoteWriter(String url) {
		this.url = URI.create(url);
	}

	/** Sends one request; an answer other than 2xx is an IOException naming it. */
	void send(byte[] writeRequest) throws IOException, InterruptedException {
		byte[] body;
		try {
			body = Snappy.compress(writeRequest);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		HttpRequest request = HttpRequest.newBuilder(this.url)
			.timeout(Duration.ofSeconds(10))
			.header("Content-Encoding", "snappy")
			.header("Content-Type", "application/x-protobuf")
			.header("X-Prometheus-Remote-Write-Version", "0.1.0")
			.header("User-Agent", "perflab-load-tests")
			.POST(HttpRequest.BodyPublishers.ofByteArray(body))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() / 100 != 2) {
			throw new IOException(this.url + " answered " + response.statusCode() + ": " + response.body().trim());
		}
	}

}
