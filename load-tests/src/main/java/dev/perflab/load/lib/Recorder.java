package dev.perflab.load.lib;

import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleListener;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.engine.util.NoThreadClone;

import us.abstracta.jmeter.javadsl.core.listeners.DslListener;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * The listener that counts every request of the run into its metrics (and through them to Prometheus, and into the
 * JTL), on the thread that sent it.
 */
final class Recorder extends BaseTestElement implements DslListener {

	private final String run;

	Recorder(String run) {
		super("perflab recorder", null);
		this.run = run;
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.setProperty(Element.RUN, this.run);
		return element;
	}

	/** The JMeter listener: one for all threads. */
	public static class Element extends AbstractTestElement implements SampleListener, NoThreadClone {

		static final String RUN = "perflab.run";

		@Override
		public void sampleOccurred(SampleEvent event) {
			Registry.<Run>get(getPropertyAsString(RUN)).sample(event);
		}

		@Override
		public void sampleStarted(SampleEvent event) {
		}

		@Override
		public void sampleStopped(SampleEvent event) {
		}

	}

}
