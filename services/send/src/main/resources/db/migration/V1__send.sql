-- Delivery jobs handed over by mail's outbox relay (seed 000). A job is keyed by the mail number, so a relay that
-- pushes the same job twice (after a crash or a lost answer) finds it already here: redelivery is harmless.
-- The job carries everything delivery needs (the EML included); send never reads mail's tables.
CREATE TABLE delivery_job (
  mail_no         BIGINT       NOT NULL PRIMARY KEY,
  office_no       BIGINT       NOT NULL,
  owner           VARCHAR(64)  NOT NULL,
  sender          VARCHAR(254) NOT NULL,
  separate_send   BOOLEAN      NOT NULL,
  cert_key        VARCHAR(64)  NULL,
  eml             MEDIUMBLOB   NOT NULL,
  digest          CHAR(64)     NOT NULL,
  -- PENDING: due at next_attempt_at; SENDING: claimed by a worker until lease_until; DONE: every recipient settled
  status          VARCHAR(8)   NOT NULL,
  attempts        INT          NOT NULL DEFAULT 0,
  next_attempt_at DATETIME(6)  NOT NULL,
  lease_until     DATETIME(6)  NULL,
  created_at      DATETIME(6)  NOT NULL,
  finished_at     DATETIME(6)  NULL,
  KEY ix_job_due (status, next_attempt_at),
  KEY ix_job_lease (status, lease_until)
);

CREATE TABLE recipient (
  mail_no      BIGINT       NOT NULL,
  email        VARCHAR(254) NOT NULL,
  kind         VARCHAR(3)   NOT NULL,
  -- PENDING, DELIVERED, FAILED (permanent: a 5xx reply, or attempts used up)
  status       VARCHAR(9)   NOT NULL,
  attempts     INT          NOT NULL DEFAULT 0,
  message_id   VARCHAR(255) NULL,
  -- the read-receipt tag this recipient's message carries; mail resolves it (its own receipt_confirm rows)
  receipt_url  VARCHAR(700) NULL,
  last_reply   VARCHAR(500) NULL,
  delivered_at DATETIME(6)  NULL,
  PRIMARY KEY (mail_no, email)
);
