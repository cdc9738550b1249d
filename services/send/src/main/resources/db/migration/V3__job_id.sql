-- A job is keyed by the id mail gives its hand-off (a UUID per outbox row), no longer by the mail number: mail's
-- numbers start again when its database is recreated (make seed on a checkout that ran before), and a new mail then
-- met a finished job of an older one under the same number (409, never delivered, and the older mail's recipients
-- shown as its status). mail_no stays as data. Jobs from before this migration keep the id 'mail-<no>'.
ALTER TABLE delivery_job ADD COLUMN job_id VARCHAR(64) NULL FIRST;
UPDATE delivery_job SET job_id = CONCAT('mail-', mail_no) WHERE job_id IS NULL;
ALTER TABLE delivery_job
  MODIFY job_id VARCHAR(64) NOT NULL,
  DROP PRIMARY KEY,
  ADD PRIMARY KEY (job_id),
  ADD KEY ix_job_mail (office_no, owner, mail_no, created_at);

-- receipt_key: the read-receipt key mail generated for this recipient (128 random bits), carried in their message
ALTER TABLE recipient
  ADD COLUMN job_id VARCHAR(64) NULL FIRST,
  ADD COLUMN receipt_key VARCHAR(64) NULL;
UPDATE recipient SET job_id = CONCAT('mail-', mail_no) WHERE job_id IS NULL;
ALTER TABLE recipient
  MODIFY job_id VARCHAR(64) NOT NULL,
  DROP PRIMARY KEY,
  ADD PRIMARY KEY (job_id, email);
