package dev.perflab.load.lib;

import java.util.Arrays;

import org.apache.jmeter.assertions.Assertion;
import org.apache.jmeter.assertions.AssertionResult;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;

import us.abstracta.jmeter.javadsl.core.assertions.DslAssertion;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * The statuses a request expects instead of 200-399 (k6's {@code responseCallback: http.expectedStatuses(404)}): the
 * request counts as failed unless it answered one of them. Put it before the request's checks.
 */
public final class Expect extends BaseTestElement implements DslAssertion {

	private final int[] statuses;

	private Expect(int[] statuses) {
		super("expected statuses", null);
		this.statuses = statuses;
	}

	public static Expect statuses(int... statuses) {
		return new Expect(statuses);
	}

	@Override
	protected TestElement buildTestElement() {
		Element element = new Element();
		element.setProperty(Element.STATUSES,
				String.join(",", Arrays.stream(this.statuses).mapToObj(Integer::toString).toList()));
		return element;
	}

	/** The JMeter assertion: it sets the request's outcome, it is no check. */
	public static class Element extends AbstractTestElement implements Assertion {

		static final String STATUSES = "perflab.statuses";

		@Override
		public AssertionResult getResult(SampleResult result) {
			String code = result.getResponseCode();
			boolean expected = Arrays.asList(getPropertyAsString(STATUSES).split(",")).contains(code);
			result.setSuccessful(expected);
			return new AssertionResult(getName());
		}

	}

}
