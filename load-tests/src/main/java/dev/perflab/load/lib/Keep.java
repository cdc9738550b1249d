package dev.perflab.load.lib;

import java.util.function.Function;

import org.apache.jmeter.processor.PostProcessor;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.JMeterContextService;

import us.abstracta.jmeter.javadsl.core.postprocessors.DslPostProcessor;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * Keeps something of an answer in a variable of the iteration, for its later requests ({@code ${link.code}}) and
 * for an {@code ifController("${link.created}", ...)} (JMeter runs its children when the variable is "true").
 */
public final class Keep extends BaseTestElement implements DslPostProcessor {

	private final String value;

	private Keep(String variable, Function<Response, String> value) {
		super(variable, null);
		this.value = Registry.put(value);
	}

	/** Keeps {@code value(answer)} as {@code variable} ("" for null). */
	public static Keep as(String variable, Function<Response, String> value) {
		return new Keep(variable, value);
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.setProperty(Element.VALUE, this.value);
		return element;
	}

	/** The JMeter post-processor. */
	public static class Element extends AbstractTestElement implements PostProcessor {

		static final String VALUE = "perflab.value";

		@Override
		public void process() {
			SampleResult previous = JMeterContextService.getContext().getPreviousResult();
			Function<Response, String> value = Registry.get(getPropertyAsString(VALUE));
			String kept = null;
			try {
				kept = previous == null ? null : value.apply(new Response(previous));
			}
			catch (RuntimeException ex) {
				// nothing to keep from an answer of another shape: its check fails it
			}
			JMeterContextService.getContext().getVariables().put(getName(), kept == null ? "" : kept);
		}

	}

}
