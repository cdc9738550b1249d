package dev.perflab.mail;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static dev.perflab.mail.MailReadTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

class MailListTest extends MailServiceTest {

	@Test
	void listsMailboxesWithCountsAndHidesLockedContents() {
		List<?> boxes = (List<?>) MailApi.json(api.get("alice", "/v2/mailboxes")).get("mailboxes");
		assertThat(boxes).hasSize(6);
		Map<?, ?> inbox = (Map<?, ?>) boxes.get(0);
		assertThat(inbox.get("name")).isEqualTo("Inbox");
		long inboxTotal = jdbc.queryForObject(
				"SELECT COUNT(*) FROM mail_content WHERE user_no = 1 AND mbox_no = 1 AND del_flag = 'N'", Long.class);
		assertThat(((Number) inbox.get("total")).longValue()).isEqualTo(inboxTotal);
		Map<?, ?> locked = (Map<?, ?>) boxes.get(5);
		assertThat(locked.get("locked")).isEqualTo(true);
		assertThat(locked.get("total")).isEqualTo(0);
	}

	@Test
	void countsOnlyMailsOutsideLockedMailboxes() {
		long expected = jdbc.queryForObject("""
				SELECT COUNT(*) FROM mail_content m LEFT JOIN personal_mailbox p ON p.no = m.mbox_no
				WHERE m.office_no = 1 AND m.user_no = 1 AND m.del_flag = 'N' AND (p.no IS NULL OR p.lockinfo_type = 'N')""",
				Long.class);
		Map<?, ?> page = MailApi.json(api.get("alice", "/v2/mails?size=100"));
		assertThat(((Number) page.get("total")).longValue()).isEqualTo(expected).isPositive();
		assertThat((List<?>) page.get("mails")).hasSize(100);
	}

	@Test
	void sortsByReceivedDateAndPages() {
		List<?> desc = (List<?>) MailApi.json(api.get("alice", "/v2/mails?size=3")).get("mails");
		List<?> asc = (List<?>) MailApi.json(api.get("alice", "/v2/mails?size=3&sort[received_date]=asc")).get("mails");
		List<?> page2 = (List<?>) MailApi.json(api.get("alice", "/v2/mails?size=3&page=2")).get("mails");
		String newest = (String) ((Map<?, ?>) desc.get(0)).get("received_date");
		String oldest = (String) ((Map<?, ?>) asc.get(0)).get("received_date");
		assertThat(newest).isGreaterThan(oldest);
		assertThat(((Map<?, ?>) page2.get(0)).get("received_date").toString())
			.isLessThanOrEqualTo(((Map<?, ?>) desc.get(2)).get("received_date").toString());
	}

	@Test
	void includesFacetsOnlyWhenAskedAndFiltersByMailbox() {
		Map<?, ?> plain = (Map<?, ?>) ((List<?>) MailApi.json(api.get("alice", "/v2/mails?size=1")).get("mails")).get(0);
		assertThat(plain.keySet().stream().map(String::valueOf).toList()).doesNotContain("approval_mail", "receipt_confirm", "encrypted");
		Map<?, ?> faceted = (Map<?, ?>) ((List<?>) MailApi
			.json(api.get("alice", "/v2/mails?size=1&with=approval_mail&with=receipt_confirm&with=encrypted"))
			.get("mails")).get(0);
		assertThat(faceted.keySet().stream().map(String::valueOf).toList()).contains("approval_mail", "receipt_confirm", "encrypted");
		List<?> sent = (List<?>) MailApi.json(api.get("alice", "/v2/mails?mailbox=2&size=20")).get("mails");
		assertThat(sent).isNotEmpty().allMatch(m -> ((Map<?, ?>) m).get("mailbox").equals(2));
	}

	@Test
	void anotherUsersOrALockedMailboxIsNotFound() {
		long bobs = jdbc.queryForObject("SELECT MIN(no) FROM personal_mailbox WHERE user_no = 2", Long.class);
		long alicesLocked = jdbc.queryForObject(
				"SELECT no FROM personal_mailbox WHERE user_no = 1 AND lockinfo_type IN ('A','B')", Long.class);
		assertProblem(api.get("alice", "/v2/mails?mailbox=" + bobs), 404);
		assertProblem(api.get("alice", "/v2/mails?mailbox=" + alicesLocked), 404);
		assertProblem(api.get("alice", "/v2/mails?mailbox=424242"), 404);
	}

	@Test
	void pagesAsDeepAsTheFirstTenThousandMails() {
		HttpResponse<String> last = api.get("alice", "/v2/mails?size=100&page=100&sort[received_date]=asc");
		assertThat(last.statusCode()).as(last.body()).isEqualTo(200);
		assertThat(api.get("alice", "/v2/mails?page=500").statusCode()).isEqualTo(200);
	}
}
