package dev.perflab.gateway;

import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param jwt how bearer tokens are verified
 * @param publicPaths path patterns that need no caller (everything else does)
 * @param edgeCache the redirect cache at the edge
 * @param rateLimit per-caller token bucket on the API routes (Redis)
 * @param accessLog one line per request
 */
@ConfigurationProperties("perflab.gateway")
public record GatewayProperties(@DefaultValue Jwt jwt,
		@DefaultValue({ "/s/*", "/v2/office/*/receipt-confirm/**" }) List<String> publicPaths,
		@DefaultValue EdgeCache edgeCache, @DefaultValue RateLimit rateLimit, @DefaultValue("true") boolean accessLog) {

	public record Jwt(@DefaultValue("https://perflab.local/dev") String issuer,
			@DefaultValue("file:${PERFLAB_JWT_DIR:.run/jwt}/public.pem") String publicKey,
			@DefaultValue("30s") Duration clockSkew) {
	}

	public record EdgeCache(@DefaultValue("true") boolean enabled, @DefaultValue("100000") long maxEntries,
			@DefaultValue("30s") Duration maxTtl, @DefaultValue("1s") Duration hitFlushInterval,
			@DefaultValue("100") long logEvery) {
	}

	/**
	 * @param replenishRate tokens per second per caller ({@code caller:<office>:<user>}) on the API routes
	 * @param burstCapacity the caller's bucket size
	 * @param perIp per client address on the public routes (redirects that reach the shortener, receipt confirms)
	 * @param redisTimeout how long a limit decision waits for Redis before this instance decides it locally
	 * @param redisRetry while deciding locally, how often one request tries Redis again
	 * @param replicas gateway instances sharing each limit: a local bucket gets 1/replicas of rate and burst
	 * @param trustedProxies proxies in front of the gateway (an Ingress controller: 1) whose X-Forwarded-For entry
	 * is believed; 0: the client address is the connection's peer
	 */
	public record RateLimit(@DefaultValue("200") int replenishRate, @DefaultValue("400") int burstCapacity,
			@DefaultValue PerIp perIp, @DefaultValue("200ms") Duration redisTimeout,
			@DefaultValue("1s") Duration redisRetry, @DefaultValue("1") int replicas,
			@DefaultValue("0") int trustedProxies) {

		/** High on purpose: one address may be a whole office behind NAT, or a benchmark. */
		public record PerIp(@DefaultValue("1000") int replenishRate, @DefaultValue("2000") int burstCapacity) {
		}
	}
}
