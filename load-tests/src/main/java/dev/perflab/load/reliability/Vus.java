package dev.perflab.load.reliability;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import dev.perflab.load.lib.Numbers;
import dev.perflab.load.lib.Share;

import org.apache.jmeter.processor.PreProcessor;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jmeter.threads.JMeterVariables;

import us.abstracta.jmeter.javadsl.core.preprocessors.DslPreProcessor;
import us.abstracta.jmeter.javadsl.core.testelements.BaseTestElement;

/**
 * A run's virtual users, as k6 keeps them: each part's idle VUs wait in a queue, and an iteration of an arrival-rate
 * part takes the one idle longest (a new one when none is), so its iterations go round its VUs and each VU keeps what
 * it saw across them; a closed crowd's thread keeps its VU for the run. VUs are numbered in the run from 1 (unique
 * among several runners' too), each calling as the token of its number.
 * <p>
 * The runner's open model starts a thread per arrival, with variables of its own: this is what gives an iteration
 * a VU of k6's kind, with a memory, a number and an iteration count of its own.
 */
final class Vus {

	private final List<String> tokens;

	private final Share share;

	private final AtomicInteger made = new AtomicInteger();

	private final Map<String, Queue<Vu>> idle = new ConcurrentHashMap<>();

	Vus(List<String> tokens, Share share) {
		this.tokens = tokens;
		this.share = share;
	}

	/** Makes {@code vus} VUs of part {@code part} ready before the load (k6's preAllocatedVUs). */
	void preallocate(String part, int vus) {
		for (int i = 0; i < vus; i++) {
			give(part, make());
		}
	}

	/** The VU idle longest of part {@code part}, or a new one. */
	Vu take(String part) {
		Vu vu = queue(part).poll();
		return vu != null ? vu : make();
	}

	/** {@code vu} is idle again. */
	void give(String part, Vu vu) {
		queue(part).offer(vu);
	}

	private Vu make() {
		int number = (int) this.share.number(this.made.getAndIncrement()) + 1;
		return new Vu(number, this.tokens.isEmpty() ? "" : this.tokens.get((number - 1) % this.tokens.size()));
	}

	private Queue<Vu> queue(String part) {
		return this.idle.computeIfAbsent(part, (p) -> new ConcurrentLinkedQueue<>());
	}

	/**
	 * The step that gives each iteration of part {@code part} its VU, before its first request: put it first among
	 * the part's steps (a pre-processor there runs before each of their requests, and takes a VU once an iteration).
	 */
	Step step(String part) {
		return new Step(this, part);
	}

	/** The DSL element of {@link #step}. */
	static final class Step extends BaseTestElement implements DslPreProcessor {

		private final Vus vus;

		private final String part;

		private Step(Vus vus, String part) {
			super("VU of " + part, null);
			this.vus = vus;
			this.part = part;
		}

		@Override
		protected TestElement buildTestElement() {
			Element element = new Element();
			element.vus = this.vus;
			element.setProperty(Element.PART, this.part);
			return element;
		}

	}

	/**
	 * The JMeter pre-processor, one per thread (JMeter clones it with the thread's tree, this class's fields with
	 * it): it takes a VU at the thread's first request, begins the VU's next iteration at each new iteration of the
	 * thread, and gives the VU back when the thread ends.
	 */
	public static class Element extends AbstractTestElement implements PreProcessor, ThreadListener {

		static final String PART = "reliability.part";

		private transient Vus vus;

		private transient Vu vu;

		private transient long iteration;

		@Override
		public void process() {
			JMeterVariables vars = JMeterContextService.getContext().getVariables();
			long number = Numbers.iteration(vars);
			if (this.vu == null) {
				this.vu = this.vus.take(getPropertyAsString(PART));
				this.vu.next();
				this.iteration = number;
			}
			else if (number != this.iteration) {
				this.vu.next();
				this.iteration = number;
			}
			this.vu.inPart = number;
			vars.putObject(Vu.VARIABLE, this.vu);
		}

		@Override
		public void threadStarted() {
		}

		@Override
		public void threadFinished() {
			if (this.vu != null) {
				this.vus.give(getPropertyAsString(PART), this.vu);
				this.vu = null;
			}
		}

		@Override
		public Object clone() {
			Element clone = (Element) super.clone();
			clone.vus = this.vus;
			return clone;
		}

	}

}
