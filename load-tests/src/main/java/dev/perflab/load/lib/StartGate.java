package dev.perflab.load.lib;

import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.TestStateListener;

import us.abstracta.jmeter.javadsl.core.DslTestPlan.TestPlanChild;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * Where the run's schedule begins: JMeter tells its test listeners the test started once the plan is compiled and
 * before it starts any thread group, so a paused run waits there, set up, for its start ({@link Run#awaitStart}).
 */
final class StartGate extends BaseTestElement implements TestPlanChild {

	private final String run;

	StartGate(String run) {
		super("perflab start gate", null);
		this.run = run;
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.setProperty(Element.RUN, this.run);
		return element;
	}

	/** The JMeter test listener. */
	public static class Element extends AbstractTestElement implements TestStateListener, NoThreadClone {

		static final String RUN = "perflab.run";

		@Override
		public void testStarted() {
			try {
				Registry.<Run>get(getPropertyAsString(RUN)).awaitStart();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		@Override
		public void testStarted(String host) {
			testStarted();
		}

		@Override
		public void testEnded() {
		}

		@Override
		public void testEnded(String host) {
		}

	}

}
