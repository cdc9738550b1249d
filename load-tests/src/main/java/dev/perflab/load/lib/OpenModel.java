package dev.perflab.load.lib;

import java.util.List;

import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jmeter.threads.openmodel.OpenModelThreadGroup;

import us.abstracta.jmeter.javadsl.core.threadgroups.BaseThreadGroup;

/**
 * JMeter's OpenModelThreadGroup in the DSL (jmeter-java-dsl 2.2 has no builder for it): one new thread per arrival of
 * the schedule, each running the iteration once.
 */
final class OpenModel extends BaseThreadGroup<OpenModel> {

	private final String schedule;

	private volatile OpenModelThreadGroup built;

	OpenModel(String name, String schedule, List<ThreadGroupChild> children) {
		super(name, null, children);
		this.schedule = schedule;
	}

	@Override
	protected AbstractThreadGroup buildThreadGroup() {
		OpenModelThreadGroup group = new OpenModelThreadGroup();
		group.setScheduleString(this.schedule);
		group.setRandomSeedString("1");
		this.built = group;
		return group;
	}

	/**
	 * Ends the group now: no further arrival, running threads interrupted, its pool shut down, so the engine ends as
	 * at the end of the schedule. (Stopping the whole engine instead makes JMeter report threads that "won't exit":
	 * it looks for the pool's threads at once, while they are still winding down.)
	 */
	void end() {
		OpenModelThreadGroup group = this.built;
		if (group != null) {
			group.tellThreadsToStop();
		}
	}

}
