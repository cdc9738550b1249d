package dev.perflab.platform.defaults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The environment a service starts with, as SpringApplication prepares it: its own application.yaml
 * ({@code defaults/service.yaml}), environment variables, and the platform's defaults below both.
 */
class ServiceDefaultsTest {

	private static final String SERVICE_YAML = "classpath:defaults/service.yaml";

	@Test
	void aServiceGetsTheSharedDefaultsItDoesNotState() {
		ConfigurableEnvironment environment = prepare(Map.of(), new DefaultResourceLoader());
		assertThat(environment.getProperty("server.shutdown")).isEqualTo("graceful");
		assertThat(environment.getProperty("management.endpoint.health.group.readiness.include"))
			.isEqualTo("readinessState,db");
		assertThat(environment.getProperty("spring.datasource.hikari.connection-timeout")).isEqualTo("5000");
		assertThat(environment.getProperty("spring.datasource.url")).isEqualTo(
				"jdbc:mysql://127.0.0.1:13306/perflab_test?rewriteBatchedStatements=true&cachePrepStmts=true"
						+ "&useServerPrepStmts=false&connectTimeout=2000&socketTimeout=5000");
		// every store call bounded: a database that stops answering is a 503 within seconds, not a thread held ~15 min
		assertThat(environment.getProperty("spring.datasource.hikari.validation-timeout")).isEqualTo("2000");
		assertThat(environment.getProperty("management.tracing.export.enabled")).isEqualTo("false");
		assertThat(environment.getProperty("server.address")).isNull();
	}

	@Test
	void theServicesOwnValueAndTheEnvironmentWinOverTheDefaults() {
		ConfigurableEnvironment environment = prepare(Map.of("SPRING_DATASOURCE_HIKARI_CONNECTIONTIMEOUT", "7000",
				"PERFLAB_MYSQL_PORT", "3307", "SERVER_SHUTDOWN", "immediate"), new DefaultResourceLoader());
		assertThat(environment.getProperty("spring.datasource.hikari.maximum-pool-size")).isEqualTo("20");
		assertThat(environment.getProperty("management.tracing.sampling.probability")).isEqualTo("0.5");
		assertThat(environment.getProperty("spring.datasource.hikari.connection-timeout")).isEqualTo("7000");
		assertThat(environment.getProperty("server.shutdown")).isEqualTo("immediate");
		assertThat(environment.getProperty("spring.datasource.url")).startsWith("jdbc:mysql://127.0.0.1:3307/perflab_test?");
	}

	@Test
	void theLocalProfileAddsItsDocumentBelowTheService() {
		ConfigurableEnvironment environment = prepare(Map.of("SPRING_PROFILES_ACTIVE", "local"),
				new DefaultResourceLoader());
		assertThat(environment.getProperty("server.address")).isEqualTo("127.0.0.1");
		assertThat(environment.getProperty("management.server.address")).isEqualTo("127.0.0.1");
		assertThat(environment.getProperty("management.tracing.export.enabled")).isEqualTo("true");
		// a later document of the defaults wins over an earlier one, the service's own value over both
		assertThat(environment.getProperty("management.tracing.sampling.probability")).isEqualTo("0.5");
		assertThat(environment.getProperty("spring.config.activate.on-profile")).isNull();
	}

	@Test
	void aServiceWithoutAStoresDriverGetsNoneOfThatStoresSettings() {
		ConfigurableEnvironment environment = prepare(Map.of(),
				new DefaultResourceLoader(new FilteredClassLoader("com.mysql.cj.jdbc.Driver")));
		assertThat(environment.getProperty("spring.datasource.url")).isNull();
		assertThat(environment.getProperty("spring.datasource.hikari.maximum-pool-size")).isEqualTo("20");
		assertThat(environment.getProperty("management.endpoint.health.group.readiness.include")).isNull();
		// neither MongoDB's nor Redis's client is on this module's classpath
		assertThat(environment.getProperty("spring.mongodb.uri")).isNull();
		assertThat(environment.getProperty("spring.data.redis.host")).isNull();
		assertThat(environment.getProperty("server.shutdown")).isEqualTo("graceful");
	}

	@Test
	void aDatabaseThatStopsAnsweringIsGivenUpOnWithinSeconds() throws IOException {
		// a real TCP peer that accepts and never says a word, as a frozen MySQL process (whose kernel still accepts)
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			List<Socket> held = new ArrayList<>();
			Thread acceptor = Thread.ofVirtual().start(() -> {
				while (!silent.isClosed()) {
					try {
						held.add(silent.accept());
					}
					catch (IOException closed) {
						return;
					}
				}
			});
			String url = prepare(Map.of("PERFLAB_MYSQL_PORT", Integer.toString(silent.getLocalPort())),
					new DefaultResourceLoader()).getProperty("spring.datasource.url");
			long start = System.nanoTime();
			assertTimeoutPreemptively(Duration.ofSeconds(20),
					() -> assertThatThrownBy(() -> DriverManager.getConnection(url, "perflab", "perflab"))
						.isInstanceOf(SQLException.class));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).as("given up after").isLessThan(Duration.ofSeconds(8));
			acceptor.interrupt();
			for (Socket socket : held) {
				socket.close();
			}
		}
	}

	/** The environment SpringApplication hands to the context, with {@code variables} as the process's environment. */
	private static ConfigurableEnvironment prepare(Map<String, Object> variables, DefaultResourceLoader resources) {
		StandardEnvironment given = new StandardEnvironment();
		given.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		SpringApplication application = new SpringApplication(resources, ServiceDefaultsTest.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setEnvironment(given);
		application.setDefaultProperties(Map.of("spring.config.location", SERVICE_YAML));
		ConfigurableEnvironment[] prepared = new ConfigurableEnvironment[1];
		application.addListeners((ApplicationListener<ApplicationEnvironmentPreparedEvent>) event -> {
			prepared[0] = event.getEnvironment();
			throw new Prepared();
		});
		try {
			application.run();
		}
		catch (Prepared expected) {
		}
		return prepared[0];
	}

	/** Ends the run once the environment is prepared: nothing here needs a context. */
	private static final class Prepared extends RuntimeException {

		Prepared() {
			super(null, null, false, false);
		}

	}

}
