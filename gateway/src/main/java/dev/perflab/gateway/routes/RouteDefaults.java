package dev.perflab.gateway.routes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;

import dev.perflab.gateway.GatewayProperties;

/**
 * What a route file leaves out, filled in once for every route: its {@code RequestRateLimiter}, from the class the
 * route names in its {@code rate-limit} metadata and the numbers of {@code perflab.gateway.rate-limit}. The route
 * files repeated the same limiter with its rates as placeholders route after route; a new route that forgot one was
 * unlimited. Now a route without the metadata is limited per caller, and only {@code none} leaves it unlimited.
 * <p>
 * The limiter goes first among the route's filters, so a refused request costs no other filter's work. A route that
 * writes its own {@code RequestRateLimiter} keeps it (and may not also name a class). The response timeout needs
 * nothing here: a route without {@code response-timeout} metadata gets the gateway's
 * ({@code spring.cloud.gateway.server.webflux.httpclient.response-timeout}).
 */
public final class RouteDefaults {

	/** The route metadata naming the route's limit class. */
	public static final String RATE_LIMIT_METADATA = "rate-limit";

	static final String REQUEST_RATE_LIMITER = "RequestRateLimiter";

	private final GatewayProperties.RateLimit limits;

	public RouteDefaults(GatewayProperties.RateLimit limits) {
		this.limits = limits;
	}

	RouteDefinition apply(RouteDefinition route) {
		Object named = route.getMetadata().get(RATE_LIMIT_METADATA);
		boolean ownLimiter = route.getFilters().stream().anyMatch(f -> REQUEST_RATE_LIMITER.equals(f.getName()));
		if (ownLimiter) {
			if (named != null) {
				throw new IllegalStateException("Route " + route.getId() + " names rate-limit: " + named
						+ " and has its own " + REQUEST_RATE_LIMITER + " filter: keep one");
			}
			return route;
		}
		LimitClass limit = LimitClass.of(route.getId(), named);
		route.getMetadata().put(RATE_LIMIT_METADATA, limit.value());
		if (limit != LimitClass.NONE) {
			List<FilterDefinition> filters = new ArrayList<>(route.getFilters());
			filters.addFirst(limiter(limit));
			route.setFilters(filters);
		}
		return route;
	}

	private FilterDefinition limiter(LimitClass limit) {
		Map<String, String> args = new LinkedHashMap<>();
		if (limit == LimitClass.CALLER) {
			// the primary limiter: Redis, deciding locally while Redis does not answer (FallbackRateLimiter)
			args.put("key-resolver", "#{@callerKeyResolver}");
			bucket(args, "redis-rate-limiter", limits.replenishRate(), limits.burstCapacity());
		}
		else {
			args.put("key-resolver", "#{@clientAddressKeyResolver}");
			args.put("rate-limiter", "#{@localRateLimiter}");
			bucket(args, "local-rate-limiter", limits.perIp().replenishRate(), limits.perIp().burstCapacity());
		}
		FilterDefinition filter = new FilterDefinition();
		filter.setName(REQUEST_RATE_LIMITER);
		filter.setArgs(args);
		return filter;
	}

	private static void bucket(Map<String, String> args, String prefix, int replenishRate, int burstCapacity) {
		args.put(prefix + ".replenishRate", Integer.toString(replenishRate));
		args.put(prefix + ".burstCapacity", Integer.toString(burstCapacity));
		args.put(prefix + ".requestedTokens", "1");
	}

	/** A route's limit class, as its {@code rate-limit} metadata names it. */
	public enum LimitClass {

		/** The verified caller's bucket in Redis (authenticated routes); the default. */
		CALLER,

		/** The client address's bucket in this instance (public routes: no caller, no Redis round trip). */
		CLIENT_ADDRESS,

		/** No limit. */
		NONE;

		public String value() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

		static LimitClass of(String routeId, Object named) {
			if (named == null) {
				return CALLER;
			}
			for (LimitClass limit : values()) {
				if (limit.value().equals(named.toString())) {
					return limit;
				}
			}
			throw new IllegalStateException("Route " + routeId + ": rate-limit is caller, client-address or none, not '"
					+ named + "'");
		}
	}
}
