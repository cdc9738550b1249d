package dev.perflab.load.lib;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Java objects a test element reaches by an id in its properties: JMeter clones every element for each thread from
 * its properties alone, so a run, a check's predicate or a counter's rule travels as a key into this map.
 */
final class Registry {

	private static final Map<String, Object> OBJECTS = new ConcurrentHashMap<>();

	private static final AtomicLong IDS = new AtomicLong();

	private Registry() {
	}

	static String put(Object object) {
		String id = "perflab-" + IDS.incrementAndGet();
		OBJECTS.put(id, object);
		return id;
	}

	@SuppressWarnings("unchecked")
	static <T> T get(String id) {
		T object = (T) OBJECTS.get(id);
		if (object == null) {
			throw new IllegalStateException("nothing registered as " + id);
		}
		return object;
	}

	static void remove(String id) {
		OBJECTS.remove(id);
	}

}
