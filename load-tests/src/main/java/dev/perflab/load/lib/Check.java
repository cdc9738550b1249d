package dev.perflab.load.lib;

import java.util.function.Predicate;

import org.apache.jmeter.assertions.Assertion;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;

import us.abstracta.jmeter.javadsl.core.assertions.DslAssertion;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * A check on a request's answer, named as a sentence ({@code redirect is 301 or 302}): counted in {@code checks}, and
 * a failed check fails its request.
 */
public final class Check extends BaseTestElement implements DslAssertion {

	private final String rule;

	private Check(String name, Predicate<Response> rule) {
		super(name, null);
		this.rule = Registry.put(rule);
	}

	public static Check check(String name, Predicate<Response> rule) {
		return new Check(name, rule);
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.setProperty(Element.RULE, this.rule);
		return element;
	}

	/** The JMeter assertion. */
	public static class Element extends AbstractTestElement implements Assertion {

		static final String RULE = "perflab.rule";

		@Override
		public AssertionResult getResult(SampleResult result) {
			Predicate<Response> rule = Registry.get(getPropertyAsString(RULE));
			boolean passed;
			try {
				passed = rule.test(new Response(result));
			}
			catch (RuntimeException ex) {
				passed = false;
			}
			return new CheckResult(getName(), passed);
		}

	}

}
