package dev.perflab.mongowire;

import java.util.Set;

import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import org.h2.mvstore.MVStore;

/**
 * H2 backend that commits every acknowledged write before answering (an acknowledged write survives a
 * kill -9 of this process), and answers {@code hello}, the handshake of current drivers and of Spring Boot's
 * Mongo health indicator, which mongo-java-server 1.47 only knows by its legacy name {@code isMaster}.
 */
final class DurableBackend extends H2Backend {

	private static final Set<String> WRITES = Set.of("insert", "update", "delete", "findandmodify", "createindexes",
			"drop", "dropindexes", "dropdatabase", "create", "renamecollection");

	DurableBackend(MVStore store) {
		super(store);
	}

	@Override
	public Document handleCommand(Channel channel, String database, String command, Document query) {
		if (command.equalsIgnoreCase("hello")) {
			Document answer = super.handleCommand(channel, database, "isMaster", query);
			answer.put("isWritablePrimary", Boolean.TRUE);
			answer.remove("ismaster");
			return answer;
		}
		Document answer = super.handleCommand(channel, database, command, query);
		if (WRITES.contains(command.toLowerCase())) {
			commit();
		}
		return answer;
	}
}
