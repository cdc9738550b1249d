package dev.perflab.mail.seed;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** {@code java -jar mail.jar --perflab.mail.seed.mails=N --spring.main.web-application-type=none} seeds and exits. */
@Component
@ConditionalOnProperty("perflab.mail.seed.mails")
class SeedRunner implements ApplicationRunner {

	private final Seeder seeder;

	private final int mails;

	private final boolean keepExisting;

	/** keep-existing: leave any earlier seed alone (make up), instead of reseeding to exactly {@code mails}. */
	SeedRunner(Seeder seeder, @Value("${perflab.mail.seed.mails}") int mails,
			@Value("${perflab.mail.seed.keep-existing:false}") boolean keepExisting) {
		this.seeder = seeder;
		this.mails = mails;
		this.keepExisting = keepExisting;
	}

	@Override
	public void run(ApplicationArguments args) throws Exception {
		if (keepExisting && seeder.seeded() > 0) {
			return;
		}
		seeder.seed(mails);
	}
}
