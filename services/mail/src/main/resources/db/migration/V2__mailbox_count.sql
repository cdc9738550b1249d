-- Per-mailbox totals, maintained in the same transaction as every mail write (seeder, send). The list's total
-- and the mailbox counts read these few rows instead of counting a user's mails on every request: at 300k mails
-- in one mailbox, counting them cost ~100 ms per request, which saturated the pool at 200 users.
CREATE TABLE mailbox_count (
  office_no BIGINT NOT NULL,
  user_no   BIGINT NOT NULL,
  mbox_no   BIGINT NOT NULL,
  total     BIGINT NOT NULL DEFAULT 0,
  unread    BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (office_no, user_no, mbox_no)
);

INSERT INTO mailbox_count (office_no, user_no, mbox_no, total, unread)
SELECT office_no, user_no, mbox_no, COUNT(*), SUM(CASE WHEN is_read THEN 0 ELSE 1 END)
FROM mail_content WHERE del_flag = 'N' GROUP BY office_no, user_no, mbox_no;
