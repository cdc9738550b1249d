package dev.perflab.platform;

import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LabSwitchesTest {

	enum Fetch {

		JDBC_STREAM, INTERFACE_PROJECTION

	}

	@Test
	void eachSwitchIsOneInfoSeriesWithTheValueInEffectInThePropertysSpelling() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		LabSwitches.metrics(() -> Map.of("points-fetch", Fetch.INTERFACE_PROJECTION, "mode", "fast")).bindTo(registry);
		Gauge fetch = registry.get("perflab.lab.switch.info").tag("switch", "points-fetch").gauge();
		assertThat(fetch.getId().getTag("value")).isEqualTo("interface-projection");
		assertThat(fetch.value()).isEqualTo(1.0);
		assertThat(registry.get("perflab.lab.switch.info").tag("switch", "mode").gauge().getId().getTag("value"))
			.isEqualTo("fast");
	}

}
