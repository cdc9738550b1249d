package dev.perflab.mail;

import java.io.IOException;

import org.junit.jupiter.api.BeforeAll;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.perflab.mail.seed.Seeder;
import dev.perflab.platform.TestIdentity;

/**
 * The mail service over real HTTP against the local MariaDB ({@code perflab_mail_test}) and real EML files,
 * seeded deterministically with 3,000 mails (three of them 22 MB).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"spring.datasource.url=jdbc:mysql://127.0.0.1:${PERFLAB_MYSQL_PORT:13306}/perflab_mail_test?rewriteBatchedStatements=true",
		"perflab.mail.storage=target/mail-storage-test",
		// module tests never hand jobs to a send service that may be running locally (the e2e tests do)
		"perflab.mail.relay.enabled=false", "perflab.mail.relay.send-url=http://127.0.0.1:9" })
public abstract class MailServiceTest {

	static final int SEEDED = 3_000;

	@LocalServerPort
	protected int port;

	@Autowired
	protected JdbcTemplate jdbc;

	protected MailApi api;

	@DynamicPropertySource
	static void identity(DynamicPropertyRegistry registry) {
		TestIdentity.trust(registry, "gateway");
		TestIdentity.signAsMail(registry);
	}

	@BeforeAll
	static void seedOnce(@Autowired Seeder seeder) throws IOException {
		seeder.seed(SEEDED);
	}

	@org.junit.jupiter.api.BeforeEach
	void client() {
		api = new MailApi(port);
	}

	/** A mail of alice's that she may see, with the given EML. */
	protected long visibleMail(String emlLike) {
		return jdbc.queryForObject("""
				SELECT MIN(m.no) FROM mail_content m WHERE m.user_no = 1 AND m.del_flag = 'N' AND m.eml_path LIKE ?
				AND NOT EXISTS (SELECT 1 FROM personal_mailbox p WHERE p.no = m.mbox_no AND p.lockinfo_type IN ('A','B'))""",
				Long.class, "%" + emlLike + "%");
	}

	protected long count(String table) {
		return jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
	}
}
