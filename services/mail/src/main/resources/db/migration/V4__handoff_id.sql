-- The hand-off to send is named by an id that cannot repeat (a UUID per outbox row), not by the mail number: the
-- numbers start again when this database is recreated, and send still held finished jobs under them (409, the new
-- mail never delivered). mail_content keeps the id so the hand-off's state and the delivery status stay reachable
-- after the outbox row is purged.
ALTER TABLE outbox ADD COLUMN job_id VARCHAR(64) NULL;
UPDATE outbox SET job_id = UUID() WHERE job_id IS NULL;
ALTER TABLE outbox MODIFY job_id VARCHAR(64) NOT NULL, ADD UNIQUE KEY ux_outbox_job (job_id), ADD KEY ix_outbox_mail (mail_no);

ALTER TABLE mail_content ADD COLUMN delivery_id VARCHAR(64) NULL;
