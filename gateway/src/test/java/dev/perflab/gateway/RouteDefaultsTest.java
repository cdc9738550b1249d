package dev.perflab.gateway;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.mock.env.MockEnvironment;

import dev.perflab.gateway.routes.RouteDefaults;
import dev.perflab.gateway.routes.RouteFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A route file states only what differs from the gateway's defaults: its limit class and a timeout of its own; the
 * rates, bursts, key resolvers and limiters come from {@code perflab.gateway.rate-limit}, the timeout otherwise from
 * the gateway's {@code httpclient.response-timeout}.
 */
class RouteDefaultsTest {

	/** The repository's route files (tests run in gateway/). */
	static final Path ROUTES = Path.of("").toAbsolutePath().resolveSibling("config/gateway/routes");

	/**
	 * Every repository route as the gateway runs it with no setting changed: key, limiter, rate/burst/tokens per
	 * request, response timeout, the route's other filters. The same, route by route, as when each file spelled its
	 * limiter and timeout out.
	 */
	static final Map<String, String> AS_BEFORE = Map.ofEntries(
			Map.entry("mail-receipt-confirm", "clientAddressKeyResolver localRateLimiter 1000/2000x1 10000ms []"),
			Map.entry("mail-api", "callerKeyResolver primary 200/400x1 60000ms []"),
			Map.entry("mail-api-docs", "clientAddressKeyResolver localRateLimiter 1000/2000x1 5000ms [SetPath]"),
			Map.entry("notifier-api", "callerKeyResolver primary 200/400x1 10000ms []"),
			Map.entry("notifier-api-docs", "clientAddressKeyResolver localRateLimiter 1000/2000x1 5000ms [SetPath]"),
			Map.entry("route-points", "callerKeyResolver primary 200/400x1 30000ms [RevalidatedBodyCache]"),
			Map.entry("route-api", "callerKeyResolver primary 200/400x1 30000ms []"),
			Map.entry("route-api-docs", "clientAddressKeyResolver localRateLimiter 1000/2000x1 5000ms [SetPath]"),
			Map.entry("send-delivery", "callerKeyResolver primary 200/400x1 10000ms []"),
			Map.entry("send-api-docs", "clientAddressKeyResolver localRateLimiter 1000/2000x1 5000ms [SetPath]"),
			Map.entry("shortener-redirect", "clientAddressKeyResolver localRateLimiter 1000/2000x1 2000ms []"),
			Map.entry("shortener-api", "callerKeyResolver primary 200/400x1 5000ms []"),
			Map.entry("shortener-api-docs",
					"clientAddressKeyResolver localRateLimiter 1000/2000x1 5000ms [SetPath]"));

	@TempDir
	Path dir;

	@Test
	void everyRepositoryRouteGetsTheLimitOfItsClassAndTheDefaultTimeoutUnlessItStatesOne() {
		ConfigurableEnvironment gateway = gatewayEnvironment();

		assertThat(table(load(ROUTES, gateway), gateway)).isEqualTo(AS_BEFORE);
	}

	@Test
	void noRepositoryRouteRepeatsADefault() {
		ConfigurableEnvironment gateway = gatewayEnvironment();
		long defaultTimeout = defaultTimeout(gateway).toMillis();

		for (RouteDefinition route : load(ROUTES, gateway)) {
			assertThat(route.getMetadata()).as("%s: its limit comes from a class, not a filter of its own", route.getId())
				.containsKey(RouteDefaults.RATE_LIMIT_METADATA);
			assertThat(route.getMetadata().get("response-timeout")).as("%s states the default timeout", route.getId())
				.isNotEqualTo((int) defaultTimeout);
		}
	}

	@Test
	void theRatesScriptsAndTheChartSetReachEveryRouteOfTheirClass() {
		// as scripts/bench-gateway.sh sets them, in the process environment
		ConfigurableEnvironment gateway = gatewayEnvironment();
		gateway.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("PERFLAB_GATEWAY_RATE_LIMIT_REPLENISH_RATE", "7", "PERFLAB_GATEWAY_RATE_LIMIT_BURST_CAPACITY",
							"8", "PERFLAB_GATEWAY_RATE_LIMIT_PER_IP_REPLENISH_RATE", "9",
							"PERFLAB_GATEWAY_RATE_LIMIT_PER_IP_BURST_CAPACITY", "10")));

		assertThat(table(load(ROUTES, gateway), gateway).values()).allSatisfy(row -> assertThat(row)
			.satisfiesAnyOf(r -> assertThat(r).startsWith("callerKeyResolver primary 7/8x1 "),
					r -> assertThat(r).startsWith("clientAddressKeyResolver localRateLimiter 9/10x1 ")));
	}

	@Test
	void aRouteWithoutAClassIsLimitedPerCallerAndOnlyNoneLeavesItUnlimited() throws IOException {
		Files.writeString(dir.resolve("billing.yaml"), """
				routes:
				  - id: billing-api
				    uri: http://billing:8090
				    predicates: [ "Path=/v1/invoices/**" ]
				  - id: billing-health
				    uri: http://billing:8090
				    predicates: [ "Path=/v1/billing/ping" ]
				    metadata: { rate-limit: none }
				""");
		ConfigurableEnvironment gateway = gatewayEnvironment();

		assertThat(table(load(dir, gateway), gateway)).containsExactlyInAnyOrderEntriesOf(
				Map.of("billing-api", "callerKeyResolver primary 200/400x1 10000ms []", "billing-health",
						"unlimited 10000ms []"));
	}

	@Test
	void aRouteThatStatesItsOwnLimiterOrTimeoutKeepsIt() throws IOException {
		Files.writeString(dir.resolve("billing.yaml"), """
				routes:
				  - id: billing-export
				    uri: http://billing:8090
				    predicates: [ "Path=/v1/exports/**" ]
				    metadata: { rate-limit: client-address, response-timeout: 120000 }
				  - id: billing-batch
				    uri: http://billing:8090
				    predicates: [ "Path=/v1/batches/**" ]
				    filters:
				      - SetPath=/v1/batch
				      - name: RequestRateLimiter
				        args:
				          key-resolver: "#{@callerKeyResolver}"
				          redis-rate-limiter.replenishRate: 3
				          redis-rate-limiter.burstCapacity: 6
				          redis-rate-limiter.requestedTokens: 2
				""");
		ConfigurableEnvironment gateway = gatewayEnvironment();

		assertThat(table(load(dir, gateway), gateway)).containsExactlyInAnyOrderEntriesOf(Map.of("billing-export",
				"clientAddressKeyResolver localRateLimiter 1000/2000x1 120000ms []", "billing-batch",
				"callerKeyResolver primary 3/6x2 10000ms [SetPath]"));
	}

	@Test
	void anUnknownClassOrAClassBesideALimiterOfItsOwnStopsTheGateway() throws IOException {
		Files.writeString(dir.resolve("billing.yaml"), """
				routes:
				  - id: billing-api
				    uri: http://billing:8090
				    predicates: [ "Path=/v1/invoices/**" ]
				    metadata: { rate-limit: per-ip }
				""");
		assertThatThrownBy(() -> load(dir, gatewayEnvironment()))
			.hasMessageContaining("billing-api: rate-limit is caller, client-address or none, not 'per-ip'");

		Files.writeString(dir.resolve("billing.yaml"), """
				routes:
				  - id: billing-api
				    uri: http://billing:8090
				    predicates: [ "Path=/v1/invoices/**" ]
				    metadata: { rate-limit: caller }
				    filters: [ "RequestRateLimiter" ]
				""");
		assertThatThrownBy(() -> load(dir, gatewayEnvironment())).hasMessageContaining("billing-api")
			.hasMessageContaining("keep one");
	}

	/** The gateway's own application.yaml (its default profile) and nothing else. */
	static ConfigurableEnvironment gatewayEnvironment() {
		MockEnvironment environment = new MockEnvironment();
		try {
			environment.getPropertySources()
				.addLast(new YamlPropertySourceLoader().load("application", new ClassPathResource("application.yaml"))
					.getFirst());
		}
		catch (IOException e) {
			throw new IllegalStateException(e);
		}
		return environment;
	}

	static List<RouteDefinition> load(Path dir, ConfigurableEnvironment environment) {
		GatewayProperties properties = Binder.get(environment).bindOrCreate("perflab.gateway", GatewayProperties.class);
		return new RouteFiles(dir, environment, new RouteDefaults(properties.rateLimit())).getRouteDefinitions()
			.collectList()
			.block();
	}

	static Duration defaultTimeout(ConfigurableEnvironment environment) {
		return Binder.get(environment)
			.bind("spring.cloud.gateway.server.webflux.httpclient.response-timeout", Duration.class)
			.get();
	}

	/** Each route's limit and timeout as the gateway applies them, one line per route id. */
	static Map<String, String> table(List<RouteDefinition> routes, ConfigurableEnvironment environment) {
		long defaultTimeout = defaultTimeout(environment).toMillis();
		Map<String, String> rows = new LinkedHashMap<>();
		for (RouteDefinition route : routes) {
			Object timeout = route.getMetadata().getOrDefault("response-timeout", defaultTimeout);
			List<String> others = route.getFilters()
				.stream()
				.map(FilterDefinition::getName)
				.filter(name -> !name.equals("RequestRateLimiter"))
				.toList();
			rows.put(route.getId(), limit(route) + " " + timeout + "ms " + others);
		}
		return rows;
	}

	private static String limit(RouteDefinition route) {
		return route.getFilters()
			.stream()
			.filter(f -> f.getName().equals("RequestRateLimiter"))
			.map(f -> {
				Map<String, String> args = f.getArgs();
				String limiter = bean(args.getOrDefault("rate-limiter", "primary"));
				String prefix = limiter.equals("localRateLimiter") ? "local-rate-limiter." : "redis-rate-limiter.";
				return bean(args.get("key-resolver")) + " " + limiter + " " + args.get(prefix + "replenishRate") + "/"
						+ args.get(prefix + "burstCapacity") + "x" + args.get(prefix + "requestedTokens");
			})
			.reduce((a, b) -> a + " AND " + b)
			.orElse("unlimited");
	}

	private static String bean(String expression) {
		return expression.replace("#{@", "").replace("}", "");
	}
}
