package dev.perflab.load.lib;

import java.util.function.Predicate;

import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContextService;

import us.abstracta.jmeter.javadsl.core.postprocessors.DslPostProcessor;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * A counter of the scenario's own ({@code shortener_edge_cache_hits}): one for every answer of its request that the
 * rule holds for.
 */
public final class Tally extends BaseTestElement implements DslPostProcessor {

	private final String run;

	private final String rule;

	private Tally(String metric, String run, Predicate<Response> rule) {
		super(metric, null);
		this.run = run;
		this.rule = Registry.put(rule);
	}

	/** Counts into {@code metric} of the run the scenario is built for. */
	public static Tally count(Scenario.Context context, String metric, Predicate<Response> rule) {
		context.run().metrics().declare(metric, Metrics.Kind.COUNTER);
		return new Tally(metric, context.runId(), rule);
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.setProperty(Element.RUN, this.run);
		element.setProperty(Element.RULE, this.rule);
		return element;
	}

	/** The JMeter post-processor. */
	public static class Element extends AbstractTestElement implements PostProcessor {

		static final String RUN = "perflab.run";

		static final String RULE = "perflab.rule";

		@Override
		public void process() {
			SampleResult previous = JMeterContextService.getContext().getPreviousResult();
			Predicate<Response> rule = Registry.get(getPropertyAsString(RULE));
			if (previous != null && rule.test(new Response(previous))) {
				Registry.<Run>get(getPropertyAsString(RUN)).tally(getName());
			}
		}

	}

}
