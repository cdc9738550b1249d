package dev.perflab.mail.message;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import dev.perflab.mail.Accounts.Account;
import dev.perflab.mail.MailProperties;
import dev.perflab.mail.eml.EmlReader;
import dev.perflab.mail.eml.MailView;
import dev.perflab.mail.eml.StoredEml;
import dev.perflab.mail.mailbox.Mailboxes;
import dev.perflab.platform.ProblemException;

/**
 * Mail list and reads. No method holds a database connection while it touches storage: each query returns its
 * connection before any EML is opened (seed 000 held one across storage I/O and ran the pool dry).
 */
@Service
public class Mails {

	private static final com.sun.management.ThreadMXBean ALLOCATION = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory
		.getThreadMXBean();

	/** A mail its owner may see: not deleted, not in a locked personal mailbox. */
	static final String VISIBLE = """
			m.office_no = :office AND m.user_no = :user AND m.del_flag = 'N'
			AND NOT EXISTS (SELECT 1 FROM personal_mailbox p WHERE p.no = m.mbox_no AND p.office_no = m.office_no
			                AND p.lockinfo_type IN """ + Mailboxes.LOCKED_TYPES + ")";

	private final JdbcClient jdbc;

	private final MailCounter counter;

	private final Mailboxes mailboxes;

	private final EmlReader reader;

	private final MailProperties properties;

	private final DistributionSummary readAllocation;

	Mails(JdbcClient jdbc, MailCounter counter, Mailboxes mailboxes, EmlReader reader, MailProperties properties,
			MeterRegistry meters) {
		this.jdbc = jdbc;
		this.counter = counter;
		this.mailboxes = mailboxes;
		this.reader = reader;
		this.properties = properties;
		// seed 000's failure was heap per read: count it, per read, on the reading thread
		this.readAllocation = DistributionSummary.builder("perflab.mail.read.allocated")
			.baseUnit("bytes")
			.description("Heap allocated by the EML parse of one mail read")
			.register(meters);
	}

	MailPage list(Account account, ListQuery query) {
		Long mailbox = query.mailbox() == null ? null : mailboxes.requireReadable(account, query.mailbox());
		long total = counter.count(account, mailbox);
		String order = query.ascending() ? "ASC" : "DESC";
		List<MailSummary> mails = jdbc.sql("SELECT m.no, m.mbox_no, m.subject, m.from_addr, m.received_date, m.size,"
				+ " m.is_read, m.important, m.approval_mail, m.receipt_confirm, m.encrypted FROM mail_content m WHERE "
				+ VISIBLE + (mailbox == null ? "" : " AND m.mbox_no = :mailbox") + " ORDER BY m.received_date " + order
				+ ", m.no " + order + " LIMIT :limit OFFSET :offset")
			.param("office", account.office())
			.param("user", account.user())
			.param("mailbox", mailbox)
			.param("limit", query.size())
			.param("offset", (long) (query.page() - 1) * query.size())
			.query((rs, i) -> new MailSummary(rs.getLong("no"), rs.getLong("mbox_no"), rs.getString("subject"),
					rs.getString("from_addr"), rs.getTimestamp("received_date").toInstant(), rs.getLong("size"),
					rs.getBoolean("is_read"), rs.getBoolean("important"),
					facet(query, ListQuery.Facet.APPROVAL_MAIL, rs.getBoolean("approval_mail")),
					facet(query, ListQuery.Facet.RECEIPT_CONFIRM, rs.getBoolean("receipt_confirm")),
					facet(query, ListQuery.Facet.ENCRYPTED, rs.getBoolean("encrypted"))))
			.list();
		return new MailPage(query.page(), query.size(), total, mails);
	}

	private static Boolean facet(ListQuery query, ListQuery.Facet facet, boolean value) {
		return query.with().contains(facet) ? value : null;
	}

	/** The stored mail if the account may see it; 404 for anything else, including another user's mail. */
	public StoredMail find(Account account, long no) {
		return jdbc.sql("SELECT m.no, m.mbox_no, m.received_date, m.size, m.eml_path, m.compressed FROM mail_content m"
				+ " WHERE m.no = :no AND " + VISIBLE)
			.param("no", no)
			.param("office", account.office())
			.param("user", account.user())
			.query((rs, i) -> new StoredMail(rs.getLong("no"), rs.getLong("mbox_no"),
					rs.getTimestamp("received_date").toInstant(),
					new StoredEml(rs.getString("eml_path"), rs.getBoolean("compressed"), rs.getLong("size"))))
			.optional()
			.orElseThrow(() -> ProblemException.notFound("No mail " + no));
	}

	public List<AttachmentView> attachments(long mailNo) {
		return jdbc.sql("SELECT idx, name, size, content_type FROM attachment WHERE mail_no = ? ORDER BY idx")
			.param(mailNo)
			.query((rs, i) -> new AttachmentView(rs.getInt("idx"), rs.getString("name"), rs.getLong("size"),
					rs.getString("content_type"), "/v2/mails/" + mailNo + "/attachments/" + rs.getInt("idx")))
			.list();
	}

	MailDetail read(Account account, long no) {
		StoredMail mail = find(account, no);
		List<AttachmentView> attachments = attachments(no);
		MailView view;
		long before = ALLOCATION.getCurrentThreadAllocatedBytes();
		try {
			view = reader.read(mail.eml());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		long allocated = ALLOCATION.getCurrentThreadAllocatedBytes() - before;
		if (before >= 0 && allocated >= 0) {
			readAllocation.record(allocated);
		}
		return new MailDetail(mail.no(), mail.mailbox(), mail.receivedDate(), mail.eml().size(), view.subject(),
				view.from(), view.to(), view.cc(), view.date(), view.messageId(), view.text(), view.html(),
				view.truncated(), attachments, "/v2/mails/" + no + "/eml");
	}

	int maxPageSize() {
		return properties.maxPageSize();
	}

	public record StoredMail(long no, long mailbox, Instant receivedDate, StoredEml eml) {
	}

	record MailSummary(long no, long mailbox, String subject, String from, Instant receivedDate, long size,
			boolean read, boolean important, Boolean approvalMail, Boolean receiptConfirm, Boolean encrypted) {
	}

	record MailPage(int page, int size, long total, List<MailSummary> mails) {
	}

	public record AttachmentView(int index, String name, long size, String contentType, String href) {
	}

	record MailDetail(long no, long mailbox, Instant receivedDate, long size, String subject, String from,
			List<String> to, List<String> cc, String date, String messageId, String text, String html,
			boolean truncated, List<AttachmentView> attachments, String emlHref) {
	}
}
