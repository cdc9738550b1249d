package dev.perflab.mongowire;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import de.bwaldvogel.mongo.MongoServer;
import org.h2.mvstore.MVStore;

/**
 * The MongoDB-wire server of the local stack: mongo-java-server over an H2 MVStore file.
 * <p>
 * Why not FerretDB v1 on SQLite: it answered a concurrent {@code $inc} with 38 of 200 increments.
 * mongo-java-server serialises writes per collection, and {@code MongoWireServerTest} proves
 * 16 × 1,000 concurrent upserting increments end at exactly 16,000.
 */
public final class MongoWireServer {

	private MongoWireServer() {
	}

	public static void main(String[] args) throws Exception {
		String host = option(args, "--host", "127.0.0.1");
		int port = Integer.parseInt(option(args, "--port", "17017"));
		Path data = Path.of(option(args, "--data", "mongo-wire.mv"));
		Files.createDirectories(data.toAbsolutePath().getParent());

		MVStore store = new MVStore.Builder().fileName(data.toString()).autoCommitDisabled().open();
		DurableBackend backend = new DurableBackend(store);
		MongoServer server = new MongoServer(backend);
		server.bind(host, port);
		System.out.printf("mongo-wire listening on %s:%d, data in %s%n", host, port, data.toAbsolutePath());

		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			server.shutdown();
			backend.close();
			stopped.countDown();
		}));
		stopped.await();
	}

	private static String option(String[] args, String name, String fallback) {
		for (int i = 0; i < args.length - 1; i++) {
			if (args[i].equals(name)) {
				return args[i + 1];
			}
		}
		return fallback;
	}
}
