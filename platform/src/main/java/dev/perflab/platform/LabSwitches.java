package dev.perflab.platform;

import java.util.Locale;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * A service's lab switches as they are in effect (docs/architecture.md: the fixed design by default, the seed's broken
 * one behind a named switch), implemented by the service's properties record. The platform exports each as
 * {@code perflab_lab_switch_info{switch="<name>", value="<value>"} 1}, so a dashboard and an A/B report show which
 * design answered.
 */
public interface LabSwitches {

	/** switch name (as in the property, e.g. {@code points-fetch}) to its value (an enum or a string) */
	Map<String, ?> labSwitches();

	/** The meter binder of every switch of {@code source}. */
	static MeterBinder metrics(LabSwitches source) {
		return registry -> register(registry, source);
	}

	private static void register(MeterRegistry registry, LabSwitches source) {
		source.labSwitches().forEach((name, value) -> Gauge.builder("perflab.lab.switch.info", () -> 1)
			.description("A lab switch of this service and the value in effect (1)")
			.tag("switch", name)
			.tag("value", format(value))
			.register(registry));
	}

	/** {@code JDBC_STREAM} → {@code jdbc-stream}, the property's own spelling */
	static String format(Object value) {
		return value instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT).replace('_', '-') : String.valueOf(value);
	}

}
