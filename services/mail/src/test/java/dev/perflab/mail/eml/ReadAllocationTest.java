package dev.perflab.mail.eml;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.perflab.mail.MailServiceTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Heap allocated by one read of the 22 MB mail, counted by the JVM for this thread (bytes, not time): the
 * streaming reader stays under 1 MB; the seed's in-memory reader allocates more than the whole file.
 */
class ReadAllocationTest extends MailServiceTest {

	@Autowired
	EmlStore store;

	@Test
	void streamingReadOfThe22MbMailAllocatesUnderOneMegabyte() throws Exception {
		StoredEml eml = new StoredEml("seed/large-22m.eml", false, Files.size(store.resolve("seed/large-22m.eml")));
		EmlReader streaming = new StreamingEmlReader(store, 1_000_000);
		EmlReader inMemory = new InMemoryEmlReader(store);
		streaming.read(eml);
		inMemory.read(eml);

		long streamed = allocatedBy(() -> streaming.read(eml));
		long loaded = allocatedBy(() -> inMemory.read(eml));
		System.out.printf("heap allocated per read of a %,d-byte EML: streaming %,d B, in-memory %,d B (%.0fx)%n",
				eml.size(), streamed, loaded, (double) loaded / streamed);
		assertThat(streamed).isLessThan(1024 * 1024);
		assertThat(loaded).isGreaterThan(eml.size());
	}

	private static long allocatedBy(Read read) throws Exception {
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		read.run();
		return threads.getCurrentThreadAllocatedBytes() - before;
	}

	@FunctionalInterface
	interface Read {

		void run() throws Exception;
	}
}
