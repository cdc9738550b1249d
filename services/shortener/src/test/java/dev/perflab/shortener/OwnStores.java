package dev.perflab.shortener;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Stores of the tests' own, for every Spring test of this module (registered in META-INF/spring.factories, so a new
 * test class cannot forget it): the database {@value #DATABASE} on the local stack's MongoDB-wire server, and a
 * redis-server started here on a free port. A shared Redis would not do, even with another db index: pub/sub
 * channels span every index, so the stack's gateway would receive the tests' invalidations, and the tests would drain
 * the stack's edge hit counts. These settings are added above every other source: no property can point a test at
 * the stack's data.
 */
public final class OwnStores implements ContextCustomizerFactory {

	public static final String DATABASE = "perflab_shortener_test";

	/** 32 bytes, base64: the code key of the tests (the service refuses to start without one). */
	public static final String CODE_KEY = "dGVzdHMtb25seS1jb2RlLWtleS0wMTIzNDU2Nzg5YWI=";

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> attributes) {
		return Customizer.INSTANCE;
	}

	/** One instance, so Spring's context cache still shares contexts between test classes. */
	enum Customizer implements ContextCustomizer {

		INSTANCE;

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			MutablePropertySources sources = context.getEnvironment().getPropertySources();
			MapPropertySource own = new MapPropertySource("shortener-own-stores",
					Map.of("spring.mongodb.database", DATABASE, "spring.data.redis.host", "127.0.0.1",
							"spring.data.redis.port", Redis.PORT, "spring.data.redis.database", 0,
							"perflab.shortener.code-key", CODE_KEY));
			sources.addFirst(own);
			// again once every customizer has run (@DynamicPropertySource adds its values first too), before any
			// configuration class is read
			context.addBeanFactoryPostProcessor(new BeanDefinitionRegistryPostProcessor() {
				@Override
				public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
					sources.remove(own.getName());
					sources.addFirst(own);
				}
			});
		}
	}

	/** A redis-server for this test JVM, gone with it. */
	static final class Redis {

		static final int PORT = start();

		private static int start() {
			int port = freePort();
			Process process;
			try {
				process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
						"--save", "", "--appendonly", "no", "--daemonize", "no")
					.redirectErrorStream(true)
					.start();
			}
			catch (IOException e) {
				throw new IllegalStateException("redis-server is needed (the local stack installs it)", e);
			}
			Runtime.getRuntime().addShutdownHook(new Thread(process::destroy));
			// redis-server says when it accepts connections: wait for that line, not for a time
			BufferedReader log = process.inputReader();
			try {
				for (String line = log.readLine(); line != null; line = log.readLine()) {
					if (line.contains("Ready to accept connections")) {
						Thread.ofPlatform().daemon().start(() -> log.lines().forEach(ignored -> {
						}));
						return port;
					}
				}
			}
			catch (IOException e) {
				throw new IllegalStateException(e);
			}
			throw new IllegalStateException("redis-server on " + port + " stopped before accepting connections");
		}

		private static int freePort() {
			try (ServerSocket socket = new ServerSocket(0)) {
				return socket.getLocalPort();
			}
			catch (IOException e) {
				throw new IllegalStateException(e);
			}
		}
	}
}
