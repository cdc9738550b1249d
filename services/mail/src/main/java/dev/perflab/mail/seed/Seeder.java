package dev.perflab.mail.seed;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import dev.perflab.mail.eml.Attachments;
import dev.perflab.mail.eml.Attachments.AttachmentInfo;
import dev.perflab.mail.eml.EmlStore;
import dev.perflab.mail.eml.StoredEml;
import dev.perflab.mail.mailbox.MailboxCounts;
import dev.perflab.mail.mailbox.Mailboxes;

/**
 * Deterministic demo and load data (fixed seed): 2 offices × 10 users (office 1 starts with alice and bob), three
 * personal mailboxes each (one locked), and {@code mails} mails of which alice owns 30 % (the heavy mailbox the
 * list benchmark reads). One mail in 10 is the 712 KB EML, one in 1,000 the 22 MB one; the rest are 4 KB.
 */
@Component
public class Seeder {

	private static final Logger log = LoggerFactory.getLogger(Seeder.class);

	static final int OFFICES = 2;

	static final int USERS_PER_OFFICE = 10;

	private static final Instant NEWEST = Instant.parse("2026-11-01T00:00:00Z");

	private static final int BATCH = 2_000;

	private final JdbcTemplate jdbc;

	private final EmlStore store;

	private final Attachments attachments;

	private final MailboxCounts counts;

	Seeder(JdbcTemplate jdbc, EmlStore store, Attachments attachments, MailboxCounts counts) {
		this.jdbc = jdbc;
		this.store = store;
		this.attachments = attachments;
		this.counts = counts;
	}

	/** How many seeded mails the store holds. */
	public long seeded() {
		Long present = jdbc.queryForObject("SELECT COUNT(*) FROM mail_content WHERE eml_path LIKE 'seed/%'", Long.class);
		return present == null ? 0 : present;
	}

	/** Seeds {@code mails} mails unless exactly that seed is already there. Returns false when it was. */
	public boolean seed(int mails) throws IOException {
		SeedEmls.writeAll(store.root());
		long present = seeded();
		Long users = jdbc.queryForObject("SELECT COUNT(*) FROM user_info", Long.class);
		if (present == mails && users != null && users == OFFICES * USERS_PER_OFFICE) {
			log.info("mail seed present: {} mails", mails);
			return false;
		}
		log.info("seeding the mail store from scratch: {} offices, {} users, {} mails (existing mail data is reset)",
				OFFICES, OFFICES * USERS_PER_OFFICE, mails);
		for (String table : List.of("attachment", "receipt_confirm", "outbox", "mailbox_count", "mail_content",
				"personal_mailbox", "user_info", "office")) {
			jdbc.execute("TRUNCATE TABLE " + table);
		}
		List<long[]> mailboxesByUser = accounts();
		insertMails(mails, mailboxesByUser);
		counts.rebuild();
		jdbc.execute("ALTER TABLE mail_content AUTO_INCREMENT = " + (mails + 1));
		log.info("mail seed done: {} mails", mails);
		return true;
	}

	/** Users in order (office 1: alice, bob, user3..; office 2: user1..) with their personal mailbox numbers. */
	private List<long[]> accounts() {
		List<long[]> mailboxes = new ArrayList<>();
		long userNo = 0;
		for (int office = 1; office <= OFFICES; office++) {
			jdbc.update("INSERT INTO office (no, name) VALUES (?, ?)", office, "Office " + office);
			for (int u = 1; u <= USERS_PER_OFFICE; u++) {
				userNo++;
				String login = office == 1 && u == 1 ? "alice" : office == 1 && u == 2 ? "bob" : "user" + u;
				jdbc.update("INSERT INTO user_info (no, office_no, login, email, name) VALUES (?, ?, ?, ?, ?)", userNo,
						office, login, login + "@o" + office + ".perflab.test", login);
				long[] own = new long[4];
				own[0] = userNo;
				String[][] boxes = { { "Projects", "N" }, { "Receipts", "N" }, { "Private", u % 2 == 0 ? "B" : "A" } };
				for (int b = 0; b < boxes.length; b++) {
					long no = 1000 + (userNo - 1) * 3 + b;
					jdbc.update("INSERT INTO personal_mailbox (no, office_no, user_no, name, lockinfo_type) VALUES (?, ?, ?, ?, ?)",
							no, office, userNo, boxes[b][0], boxes[b][1]);
					own[b + 1] = no;
				}
				mailboxes.add(own);
			}
		}
		return mailboxes;
	}

	private void insertMails(int mails, List<long[]> users) throws IOException {
		StoredEml small = eml(SeedEmls.SMALL), medium = eml(SeedEmls.MEDIUM), large = eml(SeedEmls.LARGE);
		List<AttachmentInfo> mediumParts = attachments.index(medium), largeParts = attachments.index(large);
		Random random = new Random(42);
		List<Object[]> mailRows = new ArrayList<>(BATCH);
		List<Object[]> attachmentRows = new ArrayList<>();
		for (int i = 0; i < mails; i++) {
			long no = i + 1;
			int userIndex = random.nextInt(10) < 3 ? 0 : 1 + random.nextInt(users.size() - 1);
			long[] user = users.get(userIndex);
			long office = userIndex / USERS_PER_OFFICE + 1;
			double r = random.nextDouble();
			long mailbox = r < 0.55 ? Mailboxes.INBOX : r < 0.70 ? Mailboxes.SENT : r < 0.75 ? Mailboxes.TRASH
					: user[1 + random.nextInt(3)];
			StoredEml eml = i % 1000 == 7 ? large : i % 10 == 3 ? medium : small;
			List<AttachmentInfo> parts = eml == large ? largeParts : eml == medium ? mediumParts : List.of();
			for (AttachmentInfo part : parts) {
				attachmentRows.add(new Object[] { no, part.index(), part.name(), part.size(), part.contentType() });
			}
			mailRows.add(new Object[] { no, office, user[0], mailbox, "Seed mail #" + no,
					"sender" + (i % 50) + "@perflab.test", "user@o" + office + ".perflab.test",
					Timestamp.from(NEWEST.minusSeconds(30L * i)), eml.size(), eml.path(), random.nextDouble() < 0.7,
					random.nextDouble() < 0.05, random.nextDouble() < 0.03, random.nextDouble() < 0.02,
					random.nextDouble() < 0.1 });
			if (mailRows.size() == BATCH || i == mails - 1) {
				flush(mailRows, attachmentRows);
				if ((i + 1) % 100_000 == 0 || i == mails - 1) {
					log.info("seeded {}/{} mails", i + 1, mails);
				}
			}
		}
	}

	private void flush(List<Object[]> mailRows, List<Object[]> attachmentRows) {
		jdbc.batchUpdate("""
				INSERT INTO mail_content (no, office_no, user_no, mbox_no, subject, from_addr, to_addrs, received_date,
				  size, eml_path, is_read, important, approval_mail, encrypted, receipt_confirm)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", mailRows, mailRows.size(), Seeder::set);
		if (!attachmentRows.isEmpty()) {
			jdbc.batchUpdate("INSERT INTO attachment (mail_no, idx, name, size, content_type) VALUES (?, ?, ?, ?, ?)",
					attachmentRows, attachmentRows.size(), Seeder::set);
		}
		mailRows.clear();
		attachmentRows.clear();
	}

	private static void set(PreparedStatement statement, Object[] row) throws SQLException {
		for (int c = 0; c < row.length; c++) {
			statement.setObject(c + 1, row[c]);
		}
	}

	private StoredEml eml(String path) throws IOException {
		return new StoredEml(path, false, java.nio.file.Files.size(store.resolve(path)));
	}
}
