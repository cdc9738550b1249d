package dev.perflab.load.lib;

import java.util.List;

import org.apache.jmeter.control.GenericController;
import org.apache.jmeter.samplers.Sampler;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.testelement.ThreadListener;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.jorphan.util.JMeterStopThreadException;

import us.abstracta.jmeter.javadsl.core.controllers.BaseController;
import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup.ThreadGroupChild;

/**
 * The scenario's iteration behind its run's gate, one per lane: before the first request the run decides whether the
 * iteration may start (the lane's cap on iterations in flight, the arrival's lateness) and hands it its caller; a
 * dropped iteration sends nothing. The run learns the iteration's end when its requests are done; a thread that ends
 * before that was stopped (the graceful stop ran out, or a closed run's time was up before its next request): an
 * interrupted iteration. Once the run is stopped, an iteration that has not begun ends its thread instead.
 */
public final class IterationGate extends BaseController<IterationGate> {

	private final String run;

	private final int lane;

	IterationGate(String run, int lane, List<ThreadGroupChild> children) {
		super("iteration", null, children);
		this.run = run;
		this.lane = lane;
	}

	@Override
	protected TestElement buildTestElement() {
		Gate gate = new Gate();
		gate.setProperty(Gate.RUN, this.run);
		gate.setProperty(Gate.LANE, this.lane);
		return gate;
	}

	/** The JMeter controller, one per thread (JMeter clones it with the thread's tree). */
	public static class Gate extends GenericController implements ThreadListener {

		static final String RUN = "perflab.run";

		static final String LANE = "perflab.lane";

		private transient Iteration iteration;

		@Override
		public Sampler next() {
			Run run = Registry.get(getPropertyAsString(RUN));
			if (this.iteration == null) {
				this.iteration = run.begin(getPropertyAsInt(LANE), JMeterContextService.getContext().getThreadNum());
			}
			if (!this.iteration.ran()) {
				if (Iteration.STOPPED.equals(this.iteration.dropped())) {
					// a closed model's VU would ask again at once (its loop asks its children again and again while
					// they answer nothing, until the stack overflows): its thread ends here, as JMeter ends one
					throw new JMeterStopThreadException("the run is stopped, or its part is over");
				}
				return null;
			}
			// GenericController calls next() again from inside super.next() when a child controller is done: the
			// innermost call that finds no more requests ends the iteration, the calls around it only pass null on
			Sampler next = super.next();
			if (next == null && this.iteration != null) {
				run.end(this.iteration);
				this.iteration = null;
			}
			return next;
		}

		@Override
		public void threadStarted() {
		}

		@Override
		public void threadFinished() {
			if (this.iteration != null && this.iteration.ran()) {
				Registry.<Run>get(getPropertyAsString(RUN)).interrupted(this.iteration);
			}
			this.iteration = null;
		}

		@Override
		public Object clone() {
			Gate clone = (Gate) super.clone();
			clone.iteration = null;
			return clone;
		}

	}

}
