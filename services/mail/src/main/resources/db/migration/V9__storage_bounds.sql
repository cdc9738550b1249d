-- An unsaved send (is_save false) needs its EML only until send holds its own copy: send commits the job with the EML
-- before it answers 200/201, and the relay marks the outbox row sent only on that answer. Marking it sent queues the
-- file here in the same transaction; the relay then deletes the file and, last, the queue row, so a crash at any step
-- leaves the row to be retried (deleting a file already gone is a no-op). Its mail_content row stays (hand-off state,
-- read receipts) with eml_path '' once the file is gone; nothing reads an unsaved mail's EML (del_flag 'Y').
CREATE TABLE eml_release (
  mail_no   BIGINT       NOT NULL PRIMARY KEY,
  eml_path  VARCHAR(255) NOT NULL,
  queued_at DATETIME(6)  NOT NULL,
  KEY ix_release_queued (queued_at)
);

-- EML bytes each office wrote per UTC day (perflab.mail.quota.stored-per-office), counted like recipient_quota: the
-- send's own transaction adds its EML's size with INSERT ... ON DUPLICATE KEY UPDATE after the recipient counts (always
-- in that order), reads the sum back under the row lock and rolls back whole when it passes the limit.
CREATE TABLE storage_quota (
  day       DATE   NOT NULL,
  office_no BIGINT NOT NULL,
  bytes     BIGINT NOT NULL,
  PRIMARY KEY (day, office_no)
);
