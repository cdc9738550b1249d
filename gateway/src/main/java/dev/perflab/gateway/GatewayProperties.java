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

	public record RateLimit(@DefaultValue("200") int replenishRate, @DefaultValue("400") int burstCapacity) {
	}
}
