package dev.perflab.route.seed;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

import dev.perflab.route.RouteProperties;

/**
 * {@code java -jar route.jar --perflab.route.seed.routes=N --spring.main.web-application-type=none} seeds and
 * exits (scripts/stack/seed.sh).
 */
@Component
@ConditionalOnExpression("${perflab.route.seed.routes:0} > 0")
class SeedRunner implements ApplicationRunner {

	private final Seeder seeder;

	private final int routes;

	SeedRunner(Seeder seeder, RouteProperties properties) {
		this.seeder = seeder;
		this.routes = properties.seed().routes();
	}

	@Override
	public void run(ApplicationArguments args) {
		seeder.seed(routes);
	}
}
