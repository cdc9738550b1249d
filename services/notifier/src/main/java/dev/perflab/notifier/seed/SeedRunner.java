package dev.perflab.notifier.seed;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.stereotype.Component;

import dev.perflab.notifier.NotifierProperties;

/**
 * {@code java -jar notifier.jar --perflab.notifier.seed.events=N --perflab.notifier.seed.guestbook=M
 * --spring.main.web-application-type=none} seeds and exits (scripts/stack/seed.sh).
 */
@Component
@ConditionalOnExpression("${perflab.notifier.seed.events:0} > 0 or ${perflab.notifier.seed.guestbook:0} > 0")
class SeedRunner implements ApplicationRunner {

	private final Seeder seeder;

	private final NotifierProperties.Seed settings;

	SeedRunner(Seeder seeder, NotifierProperties properties) {
		this.seeder = seeder;
		this.settings = properties.seed();
	}

	@Override
	public void run(ApplicationArguments args) {
		seeder.seed(settings.events(), settings.guestbook());
	}
}
