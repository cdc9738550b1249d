package dev.perflab.gateway;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * @param jwt how bearer tokens are verified
 * @param publicPaths path patterns that need no caller (everything else does); {@code /v3/api-docs/<service>} is each
 * service's OpenAPI document
 * @param edgeCache the redirect cache at the edge
 * @param bodyCache bodies kept for the routes with the {@code RevalidatedBodyCache} filter
 * @param rateLimit per-caller token bucket on the API routes (Redis)
 * @param accessLog one line per request
 * @param trustedProxies addresses or CIDR blocks of the proxies in front of the gateway (an Ingress controller's pod
 * network, a load balancer) whose {@code X-Forwarded-For} entries are believed, e.g. {@code 10.0.0.0/8}; empty (the
 * default): the client address is the connection's peer and no forwarded header is read
 * ({@code PERFLAB_GATEWAY_TRUSTEDPROXIES}, comma-separated)
 * @param readRetry lab switch: {@code connection-failures} (fixed: a GET or HEAD whose connection to the service failed
 * before any answer is asked again, {@code ReadRetryFilter}) or {@code none} (every such failure reaches the caller as a
 * 503: what a pod leaving under load costs without it); {@code PERFLAB_GATEWAY_READRETRY}
 * @param sendDrain at shutdown, after the web server has stopped, how long the gateway waits for the kernel to send
 * what its answers left in the connections' send buffers ({@code SendQueueDrain}); {@code 0s}: it does not wait, and a
 * slow caller loses up to a send buffer of its answer when the pod's network goes
 */
@ConfigurationProperties("perflab.gateway")
public record GatewayProperties(@DefaultValue Jwt jwt,
		@DefaultValue({ "/s/*", "/v2/office/*/receipt-confirm/**", "/v3/api-docs/*" }) List<String> publicPaths,
		@DefaultValue EdgeCache edgeCache, @DefaultValue BodyCache bodyCache, @DefaultValue RateLimit rateLimit,
		@DefaultValue("true") boolean accessLog, @DefaultValue List<String> trustedProxies,
		@DefaultValue("connection-failures") ReadRetry readRetry, @DefaultValue("5s") Duration sendDrain) {

	/** {@code perflab.gateway.read-retry}: bound here so that a value other than these two fails the start. */
	public enum ReadRetry {

		CONNECTION_FAILURES, NONE

	}

	/**
	 * @param issuer the {@code iss} every token must carry
	 * @param audience a value the token's {@code aud} must contain
	 * @param jwkSetUri the identity provider's JWKS (keys by {@code kid}, kept {@code jwksLifetime}, refetched on an
	 * unknown one within {@code jwksRefetchInterval}); or
	 * @param publicKey a PEM resource with one or more RSA public keys or certificates (two while rotating)
	 * @param types accepted {@code typ} headers (RFC 9068 access tokens say {@code at+jwt}); a token without one is
	 * refused
	 * @param officeClaim the claim naming the caller's office (required)
	 * @param clockSkew tolerance on {@code exp} and {@code nbf}
	 * @param cacheSize verified tokens remembered until they expire
	 * @param jwksRefetchInterval tokens with a {@code kid} the JWKS lacks fetch it again at most twice per interval, and
	 * a kid still unknown after a fetch is refused without one for this long (below {@code jwksLifetime})
	 * @param jwksLifetime how long a fetched JWKS is used before it is fetched again
	 * @param jwksOutageTolerance how long the last JWKS fetched stays trusted while the identity provider cannot be
	 * reached: a key the provider revoked is honoured at most this long; after it, new tokens answer 503 until the
	 * provider is back (tokens already verified stay valid until they expire)
	 */
	public record Jwt(@DefaultValue("https://perflab.local/dev") String issuer,
			@DefaultValue("perflab") String audience, @DefaultValue("") String jwkSetUri,
			@DefaultValue("") String publicKey, @DefaultValue({ "JWT", "at+jwt" }) List<String> types,
			@DefaultValue("office") String officeClaim, @DefaultValue("30s") Duration clockSkew,
			@DefaultValue("100000") long cacheSize, @DefaultValue("30s") Duration jwksRefetchInterval,
			@DefaultValue("5m") Duration jwksLifetime, @DefaultValue("1h") Duration jwksOutageTolerance) {

		public Jwt {
			if (jwksRefetchInterval.compareTo(jwksLifetime) >= 0) {
				throw new IllegalArgumentException("perflab.gateway.jwt.jwks-refetch-interval (" + jwksRefetchInterval
						+ ") must be below jwks-lifetime (" + jwksLifetime + ")");
			}
			if (jwksOutageTolerance.isNegative()) {
				throw new IllegalArgumentException("perflab.gateway.jwt.jwks-outage-tolerance must not be negative");
			}
		}
	}

	public record EdgeCache(@DefaultValue("true") boolean enabled, @DefaultValue("100000") long maxEntries,
			@DefaultValue("30s") Duration maxTtl, @DefaultValue("1s") Duration hitFlushInterval,
			@DefaultValue("100") long logEvery) {
	}

	/**
	 * @param enabled off: the routes' {@code RevalidatedBodyCache} filters pass every request through
	 * @param maxSize bytes kept over all entries (least recently used goes first)
	 * @param maxEntry the largest body kept; a larger one is passed through and not kept
	 */
	public record BodyCache(@DefaultValue("true") boolean enabled, @DefaultValue("64MB") DataSize maxSize,
			@DefaultValue("4MB") DataSize maxEntry) {
	}

	/**
	 * @param replenishRate tokens per second per caller ({@code caller:<office>:<user>}) on the API routes
	 * @param burstCapacity the caller's bucket size
	 * @param perIp per client address on the public routes (redirects that reach the shortener, receipt confirms); the
	 * address is the connection's peer, or the client a trusted proxy names ({@code perflab.gateway.trusted-proxies})
	 * @param redisTimeout how long a limit decision waits for Redis before this instance decides it locally
	 * @param redisRetry while deciding locally, how often one request tries Redis again
	 * @param replicas gateway instances sharing each limit: a local bucket gets 1/replicas of rate and burst
	 * @param lease the most requests of one caller that one Redis answer may allow: the gateway takes that many
	 * tokens at once and spends them itself, at most 1/20 of the burst, fewer as the bucket runs low, unused ones
	 * lapsing after {@code leaseLife}; 1: every request asks Redis
	 * @param leaseLife how long tokens taken ahead stay spendable
	 * @param failedTokens per client address, in this instance: bearer tokens refused with 401; once spent, a request
	 * whose token is not already known valid is refused with 429 before it is looked at
	 */
	public record RateLimit(@DefaultValue("200") int replenishRate, @DefaultValue("400") int burstCapacity,
			@DefaultValue PerIp perIp, @DefaultValue("200ms") Duration redisTimeout,
			@DefaultValue("1s") Duration redisRetry, @DefaultValue("1") int replicas,
			@DefaultValue("16") int lease,
			@DefaultValue("1s") Duration leaseLife, @DefaultValue FailedTokens failedTokens) {

		/** High on purpose: one address may be a whole office behind NAT, or a benchmark. */
		public record PerIp(@DefaultValue("1000") int replenishRate, @DefaultValue("2000") int burstCapacity) {
		}

		/**
		 * A client whose token expired fails once and fetches a new one; an office behind NAT shares the budget.
		 * @param replenishRate refused tokens per second per client address (below 1: one every 1/rate seconds)
		 * @param burstCapacity refused tokens in a row
		 */
		public record FailedTokens(@DefaultValue("5") double replenishRate, @DefaultValue("50") int burstCapacity) {
		}
	}
}
