package dev.perflab.load.reliability;

import dev.perflab.load.lib.Run;

import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContext;
import org.apache.jmeter.threads.JMeterContextService;

import us.abstracta.jmeter.javadsl.core.postprocessors.DslPostProcessor;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * Judges each answer of its request, on the thread that sent it, with the VU that sent it. A request the runner
 * itself interrupted (the run's graceful stop ran out) is no answer of the system: it is not judged, as k6's own
 * cancel at a stop was not.
 */
final class Judged extends BaseTestElement implements DslPostProcessor {

	/** What is done with an answer. */
	interface Judge {

		void judge(Answer answer, Vu vu);

	}

	private final Run run;

	private final Judge judge;

	private Judged(Run run, Judge judge) {
		super("judged", null);
		this.run = run;
		this.judge = judge;
	}

	static Judged by(Run run, Judge judge) {
		return new Judged(run, judge);
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.run = this.run;
		element.judge = this.judge;
		return element;
	}

	/** The JMeter post-processor (JMeter clones it for each thread, this class's fields with it). */
	public static class Element extends AbstractTestElement implements PostProcessor {

		private transient Run run;

		private transient Judge judge;

		@Override
		public void process() {
			JMeterContext context = JMeterContextService.getContext();
			SampleResult result = context.getPreviousResult();
			if (result == null || !this.run.counts(result.getEndTime())) {
				return;
			}
			this.judge.judge(Answer.of(result), Vu.of(context.getVariables()));
		}

		@Override
		public Object clone() {
			Element clone = (Element) super.clone();
			clone.run = this.run;
			clone.judge = this.judge;
			return clone;
		}

	}

}
