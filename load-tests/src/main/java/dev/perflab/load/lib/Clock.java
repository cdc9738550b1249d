package dev.perflab.load.lib;

import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import us.abstracta.jmeter.javadsl.core.postprocessors.DslPostProcessor;
import us.abstracta.jmeter.javadsl.core.preprocessors.DslPreProcessor;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * Times each request in nanoseconds. JMeter times samples in whole milliseconds, and the gateway's edge cache answers
 * in well under one; on the test plan, the start runs before every request's own pre-processors and the stop right
 * after the request, before its checks (JMeter runs outer processors first), so the time is the request's alone.
 */
final class Clock {

	/** The JMeter variable that holds the last request's duration in nanoseconds (a Long). */
	static final String ELAPSED = "perflab.elapsed";

	private static final String STARTED = "perflab.started";

	private Clock() {
	}

	/** The pre-processor that starts the clock. */
	static Dsl start() {
		return new Dsl("request clock start", true);
	}

	/** The post-processor that stops it. */
	static Dsl stop() {
		return new Dsl("request clock stop", false);
	}

	static final class Dsl extends BaseTestElement implements DslPreProcessor, DslPostProcessor {

		private final boolean start;

		private Dsl(String name, boolean start) {
			super(name, null);
			this.start = start;
		}

		@Override
		protected TestElement buildTestElement() {
			return this.start ? new Start() : new Stop();
		}

	}

	/** Notes when the request begins. */
	public static class Start extends AbstractTestElement implements PreProcessor {

		@Override
		public void process() {
			JMeterVariables vars = JMeterContextService.getContext().getVariables();
			vars.putObject(STARTED, System.nanoTime());
			vars.remove(ELAPSED);
			vars.remove(Jtl.MICROS);
		}

	}

	/** Notes how long the request took. */
	public static class Stop extends AbstractTestElement implements PostProcessor {

		@Override
		public void process() {
			long now = System.nanoTime();
			JMeterVariables vars = JMeterContextService.getContext().getVariables();
			if (vars.getObject(STARTED) instanceof Long started) {
				vars.putObject(ELAPSED, now - started);
				// a sample variable (JMeter's sample_variables) for the JTL: text, as JMeter copies it into the sample
				vars.put(Jtl.MICROS, Long.toString(Math.round((now - started) / 1000.0)));
			}
		}

	}

}
