package dev.perflab.gateway;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * route's points through the gateway's {@code RevalidatedBodyCache}: the body crosses the service hop once per
 * version, while the service (the test upstream standing for route) still answers every read: who may read it, and
 * which version is current.
 */
class RevalidatedBodyCacheTest extends GatewayTestSupport {

	@Test
	void aSecondReaderGetsTheWholeBodyWhileTheServiceSentOnlyA304() {
		String id = route("1");
		HttpResponse<byte[]> first = read(id, "1", "gzip");
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");

		HttpResponse<byte[]> second = read(id, "1", "gzip");
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(second.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("revalidated");
		assertThat(second.body()).isEqualTo(Upstream.points(id, 1, true)).isEqualTo(first.body());
		assertThat(second.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
		assertThat(second.headers().firstValue("Content-Encoding")).hasValue("gzip");
		assertThat(second.headers().firstValue("Content-Type")).hasValue("application/json");
		assertThat(second.headers().firstValue("Content-Length")).hasValue(Integer.toString(second.body().length));
		assertThat(second.headers().firstValue("Vary")).hasValue("Accept, Accept-Encoding");
		// the service answered both reads; it sent the body once
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(1);
		assertThat(UPSTREAM.hits("points 304 " + id)).isEqualTo(1);
	}

	@Test
	void aCallerOfAnotherOfficeGetsTheServices404WhateverTheGatewayKeeps() {
		String id = route("1");
		assertThat(read(id, "1", "gzip").statusCode()).isEqualTo(200);
		HttpResponse<byte[]> foreign = read(id, "2", "gzip");
		assertThat(foreign.statusCode()).isEqualTo(404);
		assertThat(new String(foreign.body())).doesNotContain("points");
		assertThat(foreign.body().length).isLessThan(100);
		assertThat(UPSTREAM.hits("points 404 " + id)).isEqualTo(1);
	}

	@Test
	void aRedispatchedRouteIsServedNewAtOnceAndKeptInstead() {
		String id = route("1");
		assertThat(read(id, "1", "gzip").body()).isEqualTo(Upstream.points(id, 1, true));
		UPSTREAM.routeVersion.put(id, 2);
		HttpResponse<byte[]> after = read(id, "1", "gzip");
		assertThat(after.statusCode()).isEqualTo(200);
		assertThat(after.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(after.body()).isEqualTo(Upstream.points(id, 2, true));
		assertThat(after.headers().firstValue("ETag")).hasValue("\"" + id + "-2-json-gz\"");
		HttpResponse<byte[]> again = read(id, "1", "gzip");
		assertThat(again.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("revalidated");
		assertThat(again.body()).isEqualTo(Upstream.points(id, 2, true));
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(2);
	}

	@Test
	void eachCodingIsKeptApart() {
		String id = route("1");
		read(id, "1", "gzip");
		HttpResponse<byte[]> plain = read(id, "1", null);
		assertThat(plain.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
		assertThat(plain.body()).isEqualTo(Upstream.points(id, 1, false));
		assertThat(read(id, "1", null).body()).isEqualTo(Upstream.points(id, 1, false));
		assertThat(read(id, "1", "gzip").body()).isEqualTo(Upstream.points(id, 1, true));
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(2);
		assertThat(UPSTREAM.hits("points 304 " + id)).isEqualTo(2);
	}

	@Test
	void aCallersOwnValidatorIsTheServicesToAnswer() {
		String id = route("1");
		UPSTREAM.routeSurrogateControl.put(id, "max-age=0");
		HttpResponse<byte[]> first = read(id, "1", "gzip");
		String etag = first.headers().firstValue("ETag").orElseThrow();
		HttpResponse<byte[]> revalidated = fetch(points(id, "1", "gzip").header("If-None-Match", etag));
		assertThat(revalidated.statusCode()).isEqualTo(304);
		assertThat(revalidated.body()).isEmpty();
		assertThat(revalidated.headers().firstValue("X-Perflab-Edge-Cache")).isEmpty();
		assertThat(revalidated.headers().firstValue("Surrogate-Control")).as("the grant is the gateway's alone").isEmpty();
	}

	@Test
	void withinTheServicesGrantAReadOfTheSameOfficeIsAnsweredAtTheEdge() {
		String id = route("1");
		UPSTREAM.routeSurrogateControl.put(id, "max-age=60");
		HttpResponse<byte[]> first = read(id, "1", "gzip");
		assertThat(first.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("miss");
		HttpResponse<byte[]> second = read(id, "1", "gzip");
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(second.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("hit");
		assertThat(second.body()).isEqualTo(Upstream.points(id, 1, true));
		assertThat(second.headers().firstValue("ETag")).isEqualTo(first.headers().firstValue("ETag"));
		// the grant is the gateway's alone
		assertThat(first.headers().firstValue("Surrogate-Control")).isEmpty();
		assertThat(second.headers().firstValue("Surrogate-Control")).isEmpty();
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(1);
		assertThat(UPSTREAM.hits("points 304 " + id)).isZero();
		// another office is not that office: the service answers it
		assertThat(read(id, "2", "gzip").statusCode()).isEqualTo(404);
		assertThat(UPSTREAM.hits("points 404 " + id)).isEqualTo(1);
	}

	@Test
	void aReadAnsweredAtTheEdgeStillPaysTheCallersRateLimit() {
		String id = route("1");
		UPSTREAM.routeSurrogateControl.put(id, "max-age=60");
		String token = Tokens.valid(user(), "1");
		int limited = 0;
		int hits = 0;
		// this gateway's limit: 5 per second, a burst of 5; reads come faster than 5 a second, so one is refused before
		// the twentieth (unless each took over 200 ms)
		for (int i = 0; i < 20 && limited == 0; i++) {
			HttpResponse<byte[]> response = fetch(get("/v1/routes/" + id + "/points").header("Authorization", "Bearer " + token));
			if (response.statusCode() == 429) {
				limited++;
			}
			else if (response.headers().firstValue("X-Perflab-Edge-Cache").orElse("").equals("hit")) {
				hits++;
			}
		}
		assertThat(hits).isPositive();
		assertThat(limited).isPositive();
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(1);
	}

	@Test
	void aRedispatchShowsAtTheEdgeOnceTheGrantRunsOut() {
		String id = route("1");
		UPSTREAM.routeSurrogateControl.put(id, "max-age=1");
		read(id, "1", "gzip");
		UPSTREAM.routeVersion.put(id, 2);
		Awaitility.await().atMost(Duration.ofSeconds(5))
			.until(() -> Arrays.equals(read(id, "1", "gzip").body(), Upstream.points(id, 2, true)));
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(2);
	}

	/**
	 * Twenty readers arrive at an expired entry while the first of them is asking the service: the service is asked
	 * once, and its 304 with a fresh grant answers all twenty.
	 */
	@Test
	void readersOfAnExpiredBodyWaitForTheOneAskingInsteadOfAskingToo() throws Exception {
		String id = route("1");
		UPSTREAM.routeSurrogateControl.put(id, "max-age=0");
		assertThat(read(id, "1", "gzip").statusCode()).isEqualTo(200);
		UPSTREAM.routeSurrogateControl.put(id, "max-age=60");
		List<String> how = new ArrayList<>();
		for (HttpResponse<byte[]> response : readWhileRouteHoldsItsAnswer(id, "points 304 ", 20)) {
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(Upstream.points(id, 1, true));
			how.add(response.headers().firstValue("X-Perflab-Edge-Cache").orElse("none"));
		}
		assertThat(how).containsOnlyOnce("revalidated").filteredOn("hit"::equals).hasSize(19);
		assertThat(UPSTREAM.hits("points 304 " + id)).as("the service was asked once").isEqualTo(1);
		assertThat(UPSTREAM.hits("points 200 " + id)).isEqualTo(1);
	}

	/** The waiting readers of a body the service grants no freshness ask for themselves, each as before. */
	@Test
	void withoutAGrantTheWaitingReadersAskTheServiceThemselves() throws Exception {
		String id = route("1");
		assertThat(read(id, "1", "gzip").statusCode()).isEqualTo(200);
		for (HttpResponse<byte[]> response : readWhileRouteHoldsItsAnswer(id, "points 304 ", 5)) {
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("X-Perflab-Edge-Cache")).hasValue("revalidated");
		}
		assertThat(UPSTREAM.hits("points 304 " + id)).isEqualTo(5);
	}

	/**
	 * Twenty readers of a body the gateway does not keep yet arrive while the first of them is reading it from the
	 * service: the service sends it once, and the nineteen are answered from what the first read in.
	 */
	@Test
	void readersOfABodyNotKeptYetWaitForTheOneReadingItIn() throws Exception {
		String id = route("1");
		UPSTREAM.routeSurrogateControl.put(id, "max-age=60");
		List<String> how = new ArrayList<>();
		for (HttpResponse<byte[]> response : readWhileRouteHoldsItsAnswer(id, "points 200 ", 20)) {
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(Upstream.points(id, 1, true));
			assertThat(response.headers().firstValue("Content-Length"))
				.hasValue(Integer.toString(response.body().length));
			assertThat(response.headers().firstValue("ETag")).hasValue("\"" + id + "-1-json-gz\"");
			how.add(response.headers().firstValue("X-Perflab-Edge-Cache").orElse("none"));
		}
		assertThat(how).containsOnlyOnce("miss").filteredOn("hit"::equals).hasSize(19);
		assertThat(UPSTREAM.hits("points 200 " + id)).as("the service sent the body once").isEqualTo(1);
		assertThat(UPSTREAM.hits("points 304 " + id)).isZero();
	}

	/**
	 * {@code readers} reads of route {@code id}'s points: the first reaches route (counted as {@code first}), which
	 * holds its answer back until the others are waiting in the gateway; then route answers.
	 */
	private List<HttpResponse<byte[]>> readWhileRouteHoldsItsAnswer(String id, String first, int readers)
			throws Exception {
		CountDownLatch gate = new CountDownLatch(1);
		UPSTREAM.pointsGates.put(id, gate);
		double waitsBefore = waits();
		List<CompletableFuture<HttpResponse<byte[]>>> reads = new ArrayList<>();
		try {
			reads.add(CLIENT.sendAsync(points(id, "1", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray()));
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> UPSTREAM.hits(first + id) == 1);
			for (int i = 1; i < readers; i++) {
				reads.add(CLIENT.sendAsync(points(id, "1", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray()));
			}
			Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> waits() - waitsBefore >= readers - 1);
		}
		finally {
			gate.countDown();
		}
		List<HttpResponse<byte[]>> responses = new ArrayList<>();
		for (CompletableFuture<HttpResponse<byte[]>> read : reads) {
			responses.add(read.get(10, TimeUnit.SECONDS));
		}
		return responses;
	}

	private double waits() {
		return meters.counter("perflab.gateway.body.cache.waits").count();
	}

	/** A route of the given office with its points at the upstream, under a fresh id. */
	private static String route(String office) {
		String id = Long.toString(System.nanoTime());
		UPSTREAM.routeOffice.put(id, office);
		return id;
	}

	private HttpResponse<byte[]> read(String id, String office, String acceptEncoding) {
		return fetch(points(id, office, acceptEncoding));
	}

	private HttpRequest.Builder points(String id, String office, String acceptEncoding) {
		HttpRequest.Builder request = get("/v1/routes/" + id + "/points")
			.header("Authorization", "Bearer " + Tokens.valid(user(), office))
			.header("Accept", "application/json");
		return acceptEncoding == null ? request : request.header("Accept-Encoding", acceptEncoding);
	}

	private static HttpResponse<byte[]> fetch(HttpRequest.Builder request) {
		try {
			return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException | InterruptedException e) {
			throw new IllegalStateException(e);
		}
	}
}
