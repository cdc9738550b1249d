package dev.perflab.gateway;

import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

import dev.perflab.identity.Identity;
import dev.perflab.identity.IdentityVerifier;
import dev.perflab.identity.InvalidIdentityException;
import dev.perflab.identity.VerifiedIdentity;

/**
 * A real HTTP server standing in for the services behind the gateway: it counts what reaches it and echoes the
 * identity and request-id headers it received. {@code /s/{code}} answers like the shortener, with the
 * Cache-Control the test chose.
 */
final class Upstream {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The upstream stands for the shortener: it trusts the gateway's identity key for audience "shortener". */
	private static final IdentityVerifier IDENTITY = new IdentityVerifier(
			Map.of(Identity.GATEWAY, List.of((RSAPublicKey) Tokens.identityPublicKey())), "shortener",
			Duration.ofSeconds(5), Clock.systemUTC());

	final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

	final Map<String, String> cacheControl = new ConcurrentHashMap<>();

	/** Route points: which office owns a route id, and its version (1 unless a test re-dispatches it). */
	final Map<String, String> routeOffice = new ConcurrentHashMap<>();

	final Map<String, Integer> routeVersion = new ConcurrentHashMap<>();

	/** The Surrogate-Control a route's points are sent with (none unless a test sets one). */
	final Map<String, String> routeSurrogateControl = new ConcurrentHashMap<>();

	volatile CountDownLatch slowGate = new CountDownLatch(0);

	/** Route points whose answers wait until a test opens their gate. */
	final Map<String, CountDownLatch> pointsGates = new ConcurrentHashMap<>();

	/** The upstream standing for route: the gateway's identity tokens for audience "route". */
	private static final IdentityVerifier ROUTE_IDENTITY = new IdentityVerifier(
			Map.of(Identity.GATEWAY, List.of((RSAPublicKey) Tokens.identityPublicKey())), "route",
			Duration.ofSeconds(5), Clock.systemUTC());

	private final DisposableServer server;

	Upstream() {
		server = HttpServer.create().host("127.0.0.1").port(0).route(routes -> routes
			.get("/s/{code}", (request, response) -> {
				String code = request.param("code");
				hits.computeIfAbsent(code, c -> new AtomicInteger()).incrementAndGet();
				Mono<Void> wait = code.startsWith("slow")
						? Mono.fromRunnable(() -> await(slowGate)).subscribeOn(Schedulers.boundedElastic()).then()
						: Mono.empty();
				return wait.then(response.status(302)
					.header("Location", "https://example.com/" + code)
					.header("Cache-Control", cacheControl.getOrDefault(code, "max-age=30, public"))
					.send());
			})
			// like route's points: the caller's office decides (404 otherwise), a strong ETag per version and coding,
			// 304 for a matching If-None-Match
			.get("/v1/routes/{id}/points", (request, response) -> {
				String id = request.param("id");
				String office;
				try {
					String identity = request.requestHeaders().get(Identity.HEADER);
					office = identity == null ? null : ROUTE_IDENTITY.verify(identity).office();
				}
				catch (InvalidIdentityException e) {
					office = null;
				}
				if (office == null || !office.equals(routeOffice.get(id))) {
					hits.computeIfAbsent("points 404 " + id, k -> new AtomicInteger()).incrementAndGet();
					return response.status(404).header("Content-Type", "application/problem+json")
						.sendString(Mono.just("{\"status\":404}")).then();
				}
				boolean gzip = String.valueOf(request.requestHeaders().get("Accept-Encoding")).contains("gzip");
				int version = routeVersion.getOrDefault(id, 1);
				String etag = "\"" + id + "-" + version + "-json" + (gzip ? "-gz" : "") + "\"";
				response.header("ETag", etag).header("Vary", "Accept, Accept-Encoding")
					.header("Cache-Control", "private, max-age=3600, immutable");
				String surrogate = routeSurrogateControl.get(id);
				if (surrogate != null) {
					response.header("Surrogate-Control", surrogate);
				}
				// a test holding the answer back: the request has arrived (and is counted), its answer waits for the gate
				CountDownLatch gate = pointsGates.get(id);
				Mono<Void> wait = gate == null ? Mono.empty()
						: Mono.fromRunnable(() -> await(gate)).subscribeOn(Schedulers.boundedElastic()).then();
				if (etag.equals(request.requestHeaders().get("If-None-Match"))) {
					hits.computeIfAbsent("points 304 " + id, k -> new AtomicInteger()).incrementAndGet();
					return wait.then(response.status(304).send());
				}
				hits.computeIfAbsent("points 200 " + id, k -> new AtomicInteger()).incrementAndGet();
				byte[] body = points(id, version, gzip);
				if (gzip) {
					response.header("Content-Encoding", "gzip");
				}
				return wait.then(response.status(200).header("Content-Type", "application/json")
					.header("Content-Length", Integer.toString(body.length))
					.sendByteArray(Mono.just(body)).then());
			})
			// a pod shutting down: the first request on a path closes the connection without an answer
			// a pod killed mid-request: the connection is reset (RST, SO_LINGER 0), not closed
			.route(r -> r.uri().contains("/reset-"), (request, response) -> {
				hits.computeIfAbsent(request.method() + " " + request.path(), c -> new AtomicInteger()).incrementAndGet();
				request.withConnection(connection -> {
					connection.channel().config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
					connection.channel().close();
				});
				return Mono.never();
			})
			// a pod stopping while the gateway still sends a request's body: closed on the request's headers, its
			// body never read (the gateway's send fails part-way: "closed BEFORE send operation")
			.route(r -> r.uri().contains("/close-mid-body-"), (request, response) -> {
				hits.computeIfAbsent(request.method() + " " + request.path(), c -> new AtomicInteger()).incrementAndGet();
				request.withConnection(connection -> connection.channel().close());
				return Mono.never();
			})
			.route(r -> r.uri().contains("/close-once-"), (request, response) -> {
				int n = hits.computeIfAbsent(request.method() + " " + request.path(), c -> new AtomicInteger())
					.incrementAndGet();
				if (n == 1) {
					request.withConnection(connection -> connection.channel().close());
					return Mono.never();
				}
				return response.status(200).header("Content-Type", "application/json").sendString(Mono.just("{}")).then();
			})
			.route(r -> true, (request, response) -> {
				hits.computeIfAbsent(request.method() + " " + request.path(), c -> new AtomicInteger()).incrementAndGet();
				// what a service sees: the identity the gateway signed for it, verified as the services verify it
				Map<String, Object> seen = new LinkedHashMap<>();
				String identity = request.requestHeaders().get(Identity.HEADER);
				try {
					VerifiedIdentity verified = identity == null ? null : IDENTITY.verify(identity);
					seen.put("user", verified == null ? null : verified.subject());
					seen.put("office", verified == null ? null : verified.office());
				}
				catch (InvalidIdentityException e) {
					seen.put("identityError", e.getMessage());
				}
				seen.put("requestId", request.requestHeaders().get("X-Request-Id"));
				seen.put("spoof", request.requestHeaders().get("X-Perflab-Admin"));
				seen.put("forwardedUser", request.requestHeaders().get("X-Perflab-User"));
				seen.put("headers", request.requestHeaders().names().stream().map(n -> n.toLowerCase(Locale.ROOT))
					.sorted().toList());
				String body = JSON.writeValueAsString(seen);
				// headers of this hop only, which the gateway must not pass on to its caller
				return response.status(request.method().name().equals("POST") ? 201 : 200)
					.header("Keep-Alive", "timeout=5")
					.header("Proxy-Authenticate", "Basic realm=\"upstream\"")
					.header("Connection", "X-Upstream-Hop")
					.header("X-Upstream-Hop", "1")
					.header("Content-Type", "application/json")
					.sendString(Mono.just(body))
					.then();
			}))
			.bindNow();
	}

	/** A route's points body: about 200 KB, different for each route, version and coding. */
	static byte[] points(String id, int version, boolean gzip) {
		byte[] body = new byte[200_000];
		new java.util.Random(Objects.hash(id, version, gzip)).nextBytes(body);
		return body;
	}

	int port() {
		return server.port();
	}

	int hits(String key) {
		AtomicInteger n = hits.get(key);
		return n == null ? 0 : n.get();
	}

	void stop() {
		server.disposeNow();
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
