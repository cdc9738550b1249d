package dev.perflab.mongowire;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.ReturnDocument;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Updates.inc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Runs against the mongo-wire process that the local stack started (scripts/stack/stack.sh), over a real socket. */
class MongoWireServerTest {

	static MongoClient client;

	static MongoCollection<Document> collection;

	@BeforeAll
	static void connect() {
		String uri = System.getenv().getOrDefault("PERFLAB_MONGO_URI", "mongodb://127.0.0.1:17017");
		client = MongoClients.create(uri);
		collection = client.getDatabase("mongo_wire_test").getCollection("counters_" + System.nanoTime());
	}

	@AfterAll
	static void close() {
		collection.drop();
		client.close();
	}

	@Test
	void concurrentUpsertingIncrementsAreNeverLost() throws Exception {
		int threads = 16;
		int perThread = 1_000;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<?>> done = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			done.add(pool.submit(() -> {
				for (int i = 0; i < perThread; i++) {
					collection.findOneAndUpdate(eq("_id", "seq"), inc("value", 1L),
							new FindOneAndUpdateOptions().upsert(true).returnDocument(ReturnDocument.AFTER));
				}
			}));
		}
		for (Future<?> f : done) {
			f.get();
		}
		pool.shutdown();
		assertThat(collection.find(eq("_id", "seq")).first().getLong("value")).isEqualTo(16_000L);
	}

	@Test
	void uniqueIndexViolationAnswersDuplicateKey11000() {
		collection.createIndex(Indexes.ascending("code"), new IndexOptions().unique(true));
		collection.insertOne(new Document("code", "abc"));
		MongoWriteException e = catchThrowableOfType(MongoWriteException.class,
				() -> collection.insertOne(new Document("code", "abc")));
		assertThat(e.getCode()).isEqualTo(11000);
		assertThat(e.getError().getCategory()).isEqualTo(ErrorCategory.DUPLICATE_KEY);
	}

	@Test
	void answersTheHelloHandshake() {
		Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
		assertThat(hello.getDouble("ok")).isEqualTo(1.0);
		assertThat(hello.getBoolean("isWritablePrimary")).isTrue();
	}
}
