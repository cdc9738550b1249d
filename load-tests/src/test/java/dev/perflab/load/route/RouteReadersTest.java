package dev.perflab.load.route;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.perflab.load.lib.BadInput;
import dev.perflab.load.lib.Load;
import dev.perflab.load.lib.Settings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Seed 002's readers: a wave or a sustained crowd, each reader on its route of ROUTES in turn.
 */
class RouteReadersTest {

	@Test
	void spreadsReadersOverTheRoutesRoundRobin() {
		List<String> routes = RouteReaders.routes(settings("ROUTES=3, 5,,8", "ROUTE=1"));
		assertThat(routes).containsExactly("3", "5", "8");
		assertThat(List.of(0, 1, 2, 3).stream().map((t) -> RouteReaders.path(routes, "", t)))
			.containsExactly("/v1/routes/3/points", "/v1/routes/5/points", "/v1/routes/8/points", "/v1/routes/3/points");
		assertThat(RouteReaders.path(routes, "/v1/routes/9/points?x", 1)).isEqualTo("/v1/routes/9/points?x");
	}

	@Test
	void aWaveStartsEveryReaderOnceAndASustainedRunLoops() {
		assertThat(new RouteReaders().load(settings("ROUTE=1")))
			.isEqualTo(Load.once(1000, Duration.ofSeconds(120), Duration.ofSeconds(30)));
		assertThat(new RouteReaders().load(settings("MODE=sustained", "VUS=7")))
			.isEqualTo(Load.closed(7, Duration.ofSeconds(20), Duration.ofSeconds(30)));
	}

	@Test
	void refusesAnUnknownMode() {
		assertThatThrownBy(() -> new RouteReaders().load(settings("MODE=burst"))).isInstanceOf(BadInput.class)
			.hasMessage("MODE=burst: one of wave, sustained");
	}

	private static Settings settings(String... values) {
		return Settings.of(Map.of(), List.of(values));
	}

}
