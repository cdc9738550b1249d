package dev.perflab.e2e;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;

/**
 * Rows of every table of the services' MariaDB databases and documents of every collection of their MongoDB
 * databases, as {@code store.database.table -> count}: what a refused request must leave unchanged. The databases are
 * the stores' own list (every {@code perflab_*} but the services' {@code *_test} ones), not typed here: a service's
 * databases are named once, in its {@code service.env}, and the stack creates them from there.
 */
final class StoreCounts {

	private static final String SERVICE_DATABASES = "perflab\\_%";

	private static final String TEST_DATABASES = "%\\_test";

	private static final String MYSQL_URL = "jdbc:mysql://127.0.0.1:"
			+ System.getenv().getOrDefault("PERFLAB_MYSQL_PORT", "13306") + "/";

	private static final String MONGO_URI = System.getenv().getOrDefault("PERFLAB_MONGO_URI",
			"mongodb://127.0.0.1:" + System.getenv().getOrDefault("PERFLAB_MONGO_PORT", "17017"));

	private StoreCounts() {
	}

	/** Counts once the background work (relays, sweepers, leases) has settled: two reads a second apart agree. */
	static Map<String, Long> settled(Duration atMost) throws Exception {
		long deadline = System.nanoTime() + atMost.toNanos();
		Map<String, Long> previous = now();
		while (true) {
			Thread.sleep(1000);
			Map<String, Long> current = now();
			if (current.equals(previous) || System.nanoTime() > deadline) {
				return current;
			}
			previous = current;
		}
	}

	static Map<String, Long> now() throws SQLException {
		Map<String, Long> counts = new TreeMap<>();
		try (Connection db = DriverManager.getConnection(MYSQL_URL,
				System.getenv().getOrDefault("PERFLAB_MYSQL_USER", "perflab"),
				System.getenv().getOrDefault("PERFLAB_MYSQL_PASSWORD", "perflab"));
				Statement statement = db.createStatement()) {
			for (String database : databases(statement)) {
				for (String table : tables(statement, database)) {
					try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM `" + database + "`.`" + table + "`")) {
						rows.next();
						counts.put("mariadb." + database + "." + table, rows.getLong(1));
					}
				}
			}
		}
		try (MongoClient client = MongoClients.create(MONGO_URI)) {
			for (String name : client.listDatabaseNames()) {
				if (!name.startsWith("perflab_") || name.endsWith("_test")) {
					continue;
				}
				MongoDatabase database = client.getDatabase(name);
				for (String collection : database.listCollectionNames()) {
					counts.put("mongo." + name + "." + collection, database.getCollection(collection).countDocuments());
				}
			}
		}
		return counts;
	}

	/** The keys whose count differs, each as {@code key: before -> after}. */
	static List<String> differences(Map<String, Long> before, Map<String, Long> after) {
		List<String> changed = new ArrayList<>();
		TreeMap<String, Long> all = new TreeMap<>(before);
		after.forEach(all::putIfAbsent);
		for (String key : all.keySet()) {
			if (!Objects.equals(before.get(key), after.get(key))) {
				changed.add(key + ": " + before.get(key) + " -> " + after.get(key));
			}
		}
		return changed;
	}

	private static List<String> databases(Statement statement) throws SQLException {
		List<String> databases = new ArrayList<>();
		try (ResultSet names = statement.executeQuery("SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE '"
				+ SERVICE_DATABASES + "' AND schema_name NOT LIKE '" + TEST_DATABASES + "' ORDER BY schema_name")) {
			while (names.next()) {
				databases.add(names.getString(1));
			}
		}
		return databases;
	}

	private static List<String> tables(Statement statement, String database) throws SQLException {
		List<String> tables = new ArrayList<>();
		try (ResultSet names = statement.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
				+ database + "' AND table_type = 'BASE TABLE' ORDER BY table_name")) {
			while (names.next()) {
				tables.add(names.getString(1));
			}
		}
		return tables;
	}
}
