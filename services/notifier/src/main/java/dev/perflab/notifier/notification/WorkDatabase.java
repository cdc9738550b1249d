package dev.perflab.notifier.notification;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.notifier.NotifierProperties;

/**
 * The database as dispatch and sweeper see it: the requests' database through a small Hikari pool of its own
 * ({@code perflab.notifier.work-pool}, reported as {@code hikaricp_*{pool="notifier-work"}}). A signing then never
 * waits for a connection behind a send: seed 001's profile with one shared pool showed up to 100 dispatch threads
 * parked in {@code HikariPool.getConnection} beside the request threads. Not a {@code DataSource} bean, so Boot's own
 * pool, Flyway and health stay on the requests' database untouched.
 */
final class WorkDatabase implements AutoCloseable {

	private final HikariDataSource pool;

	private final JdbcClient jdbc;

	private final TransactionTemplate tx;

	WorkDatabase(HikariDataSource requests, NotifierProperties.WorkPool settings, MeterRegistry meters) {
		HikariConfig config = new HikariConfig();
		config.setPoolName("notifier-work");
		config.setJdbcUrl(requests.getJdbcUrl());
		config.setUsername(requests.getUsername());
		config.setPassword(requests.getPassword());
		if (requests.getDriverClassName() != null) {
			config.setDriverClassName(requests.getDriverClassName());
		}
		config.setDataSourceProperties(requests.getDataSourceProperties());
		config.setMaximumPoolSize(settings.maximumPoolSize());
		config.setMinimumIdle(settings.maximumPoolSize());
		config.setConnectionTimeout(settings.connectionTimeout().toMillis());
		config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(meters));
		// started now, so its metrics exist from the start; a database that is down is not a reason to refuse to start
		// (the requests' pool does not either): the pool keeps trying
		config.setInitializationFailTimeout(-1);
		pool = new HikariDataSource(config);
		jdbc = JdbcClient.create(pool);
		tx = new TransactionTemplate(new JdbcTransactionManager(pool));
	}

	JdbcClient jdbc() {
		return jdbc;
	}

	TransactionTemplate tx() {
		return tx;
	}

	@Override
	public void close() {
		pool.close();
	}
}
